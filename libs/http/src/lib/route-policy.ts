import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyContextConfig } from 'fastify';

const ROUTE_POLICY = Symbol('route policy');

/** Adds `part` to the handler's policy (docs/decisions/0002); RouteConfig gets the whole so far, so decorators compose. */
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
    /** The route's security headers instead of the API's (API_HEADERS): the docs' pages, say (DOCS_PAGE_HEADERS). */
    readonly securityHeaders?: Readonly<Record<string, string>>;
  }
}

/** Served without a bearer key (probes, the metrics scrape, the docs); every other route requires one, wherever its path. */
export function Public(): MethodDecorator {
  return RoutePolicy({ public: true });
}

/** Every answer of the route, errors included, carries these headers (a deprecation's, say). */
export function RouteHeaders(headers: Readonly<Record<string, string>>): MethodDecorator {
  return RoutePolicy({ responseHeaders: headers });
}

/** The route gets `request.rawBody` when the request carries `header` (lower case, as Node names headers). */
export function KeepRawBodyWith(header: string): MethodDecorator {
  return RoutePolicy({ keepRawBodyWith: header });
}
