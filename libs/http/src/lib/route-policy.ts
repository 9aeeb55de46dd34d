import { RouteConfig } from '@nestjs/platform-fastify';
import type { ApiHeaders } from '@petstore/http-errors';
import type { FastifyContextConfig } from 'fastify';

const ROUTE_POLICY = Symbol('route policy');
const ANSWER_HEADERS = Symbol('documented answer headers');

/** The policy a handler's decorators declared (RoutePolicy). */
export function routePolicyOf(handler: object): FastifyContextConfig {
  return (Reflect.getMetadata(ROUTE_POLICY, handler) as FastifyContextConfig | undefined) ?? {};
}

/** Adds `part` to the handler's policy (docs/decisions/0002); RouteConfig gets the whole so far, so decorators compose. */
export function RoutePolicy(part: FastifyContextConfig): MethodDecorator {
  return (target, key, descriptor) => {
    const handler = descriptor.value as object;
    const policy: FastifyContextConfig = { ...routePolicyOf(handler), ...part };
    if (policy.public && policy.takesPrincipal) {
      throw new Error(
        `${target.constructor.name}.${String(key)} is @Public() but takes @Principal(), which only an authenticated request has: ` +
          'remove one of the two',
      );
    }
    Reflect.defineMetadata(ROUTE_POLICY, policy, handler);
    RouteConfig(policy)(target, key, descriptor);
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** One of the API's operations (ApiController): its URL's other methods answer 405, and CORS allows its methods. */
    readonly operation?: boolean;
    /** Served without a bearer key (Public); auth requires one on every other route. */
    readonly public?: boolean;
    /** The handler takes the caller's API key (@Principal()), so the route cannot be Public. */
    readonly takesPrincipal?: boolean;
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

/** A header every answer of a route carries: its constant value, and what it means for the document. */
export interface RouteHeader {
  readonly value: string;
  readonly description: string;
}

/** Every answer of the route, errors included, carries these headers (a deprecation's, say), and is documented with them. */
export function RouteHeaders(headers: Readonly<Record<string, RouteHeader>>): MethodDecorator {
  const values = Object.fromEntries(Object.entries(headers).map(([name, { value }]) => [name.toLowerCase(), value]));
  const documented = Object.fromEntries(
    Object.entries(headers).map(([name, { value, description }]) => [
      name,
      { description, schema: { type: 'string', enum: [value], example: value } },
    ]),
  );
  return (target, key, descriptor) => {
    Reflect.defineMetadata(ANSWER_HEADERS, documented, descriptor.value as object);
    RoutePolicy({ responseHeaders: values })(target, key, descriptor);
  };
}

/** The headers RouteHeaders documents on every answer of the handler. */
export function documentedAnswerHeadersOf(handler: object): ApiHeaders {
  return (Reflect.getMetadata(ANSWER_HEADERS, handler) as ApiHeaders | undefined) ?? {};
}

/** The route gets `request.rawBody` when the request carries `header` (lower case, as Node names headers). */
export function KeepRawBodyWith(header: string): MethodDecorator {
  return RoutePolicy({ keepRawBodyWith: header });
}
