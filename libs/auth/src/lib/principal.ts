/** Who made an authenticated request: the API key that was presented, by a non-secret label. */
export interface Principal {
  readonly keyId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the bearer authentication hook on every request it lets through. */
    principal: Principal | null;
  }
}
