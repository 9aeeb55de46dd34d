import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyContextConfig } from 'fastify';

// A route's policy is declared on its handler, one decorator per concern (Public, RouteHeaders,
// KeepRawBodyWith, ApiConditionalGet…), and reaches Fastify as the route's config
// (`request.routeOptions.config`), where the concern's own hooks read it before the body is. Each
// concern adds its fields to Fastify's FastifyContextConfig, so the whole policy is one typed object.

const ROUTE_POLICY = Symbol('route policy');

/**
 * Adds `part` to the policy of the handler it decorates. Decorators built on it compose in any
 * order: each hands Nest's RouteConfig the policy so far, so the one applied last carries all.
 */
export function RoutePolicy(part: FastifyContextConfig): MethodDecorator {
  return (target, key, descriptor) => {
    const handler = descriptor.value as object;
    const policy: FastifyContextConfig = { ...(Reflect.getMetadata(ROUTE_POLICY, handler) as FastifyContextConfig | undefined), ...part };
    Reflect.defineMetadata(ROUTE_POLICY, policy, handler);
    RouteConfig(policy)(target, key, descriptor);
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served without a bearer key (Public); auth requires one on every other route. */
    readonly public?: boolean;
    /** Headers sent with every answer of the route, errors included (RouteHeaders). */
    readonly responseHeaders?: Readonly<Record<string, string>>;
    /** The request header whose presence makes the JSON parser keep the body's bytes in `rawBody` (KeepRawBodyWith). */
    readonly keepRawBodyWith?: string;
    /** The route answers conditionally: ETag, 304 to a matching If-None-Match (ApiConditionalGet). */
    readonly conditionalGet?: boolean;
  }
}

/**
 * The route is served without a bearer key: probes, the metrics scrape (which has its own token),
 * the documentation. Every route without it requires a key, wherever its path is.
 */
export function Public(): MethodDecorator {
  return RoutePolicy({ public: true });
}

/** Every answer of the route, errors included, carries these headers (a deprecation's, say). */
export function RouteHeaders(headers: Readonly<Record<string, string>>): MethodDecorator {
  return RoutePolicy({ responseHeaders: headers });
}

/**
 * The route sees its body's bytes as received (`request.rawBody`: a fingerprint, a signature) when
 * the request carries `header` (lower case, as Node names headers); other requests keep nothing.
 */
export function KeepRawBodyWith(header: string): MethodDecorator {
  return RoutePolicy({ keepRawBodyWith: header });
}
