/** Injection token of the IdempotencyOptions. */
export const IDEMPOTENCY_OPTIONS = Symbol('IDEMPOTENCY_OPTIONS');

/** How idempotent creates are kept. */
export interface IdempotencyOptions {
  /** How long the answer to a create with an Idempotency-Key is kept for its retries. */
  readonly lifetimeSeconds: number;
}
