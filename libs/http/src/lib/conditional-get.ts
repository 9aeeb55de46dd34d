import { applyDecorators, type INestApplication } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { ApiHeader as ApiRequestHeader, ApiResponse, type ApiResponseNoStatusOptions, type OpenAPIObject } from '@nestjs/swagger';
import type { ApiHeader, ApiHeaders } from '@petstore/http-errors';
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import { entityTagOf, ifNoneMatchNames, REVALIDATE_EACH_USE } from './entity-tag';
import { documentedOperations } from './route-schemas';

// Conditional GET (RFC 9110, section 13): an ETag on every 200 of a conditional route, and 304
// to an If-None-Match that names it. A route is conditional when its operation documents a 304
// answer (ApiConditionalGet): the document is the rule's one definition, and this lib names no feature.

const NOT_MODIFIED = '304';

/** The route config that applyConditionalGets sets on a conditional route. */
interface ConditionalGetConfig {
  readonly conditionalGet?: true;
}

const ETAG: ApiHeader = {
  description:
    'The strong entity-tag of this answer: send it back in `If-None-Match` to be answered 304 (no body) for as long as the answer would be the same',
  schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]+"$', maxLength: 64, example: entityTagOf('[]') },
};

const CACHE_CONTROL: ApiHeader = {
  description:
    'The answer may be kept by this client only (not by shared caches), and must be revalidated with `If-None-Match` before each use',
  schema: { type: 'string', enum: [REVALIDATE_EACH_USE], example: REVALIDATE_EACH_USE },
};

/** A list of entity-tags, weak or strong, or `*` (RFC 9110, section 13.1.2). */
const IF_NONE_MATCH_PATTERN = '^(\\*|(W/)?"[\\x21\\x23-\\x7e]*"([ \\t]*,[ \\t]*(W/)?"[\\x21\\x23-\\x7e]*")*)$';

const IF_NONE_MATCH_DESCRIPTION = [
  'The `ETag` of the copy you hold (RFC 9110, section 13.1.2), or several separated by commas.',
  "When one of them is the current answer's (weak comparison: a `W/` prefix is ignored), or the value is `*`,",
  'the answer is 304 Not Modified, with no body and the headers the 200 would carry: keep using your copy.',
  'Otherwise the answer is what it would be without it: a malformed value is never refused.',
].join(' ');

/**
 * Documents a conditional GET: the 200 (`answer`) with `ETag` and `Cache-Control` besides its own
 * headers, the 304 with the same headers and no body, and the `If-None-Match` parameter. The 304
 * is what makes the route answer conditionally (applyConditionalGets).
 */
export function ApiConditionalGet({ headers, ...answer }: ApiResponseNoStatusOptions & { readonly headers: ApiHeaders }) {
  const answerHeaders = { ETag: ETAG, 'Cache-Control': CACHE_CONTROL, ...headers };
  return applyDecorators(
    ApiRequestHeader({
      name: 'If-None-Match',
      required: false,
      description: IF_NONE_MATCH_DESCRIPTION,
      schema: { type: 'string', maxLength: 4096, pattern: IF_NONE_MATCH_PATTERN },
    }),
    ApiResponse({ ...answer, status: 200, headers: answerHeaders }),
    ApiResponse({
      status: Number(NOT_MODIFIED),
      description: 'Not modified: `If-None-Match` names the current answer. No body; the headers of the 200, its `ETag` included',
      headers: answerHeaders,
    }),
  );
}

/**
 * Makes conditional each route whose operation in `document` has a 304 answer: its route config
 * says so, and a hook of its own answers from the serialized 200. Call it before `init`, which
 * registers the routes; other routes pay nothing.
 */
export function applyConditionalGets(app: INestApplication, document: OpenAPIObject): void {
  for (const { prototype, method, handler, operation } of documentedOperations(app, document)) {
    if (!operation.responses?.[NOT_MODIFIED]) continue;
    const config = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as object | undefined;
    RouteConfig({ ...config, conditionalGet: true } satisfies ConditionalGetConfig)(prototype, method, { value: handler });
  }
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.addHook('onRoute', (route) => {
    if (!(route.config as ConditionalGetConfig | undefined)?.conditionalGet) return;
    const methods = [route.method].flat();
    if (methods.some((method) => method !== 'GET' && method !== 'HEAD')) {
      throw new Error(`${methods.join(', ')} ${route.url} documents a 304: only GET (and HEAD) answer conditionally`);
    }
    // First of the route's own onSend hooks: Fastify's own for HEAD, added to the HEAD route it
    // makes from the GET, drops the payload this one hashes.
    route.onSend = [answerConditionally, ...[route.onSend ?? []].flat()];
  });
}

/**
 * The 200's bytes give its ETag; an If-None-Match that names it (RFC 9110, section 13.1.2) turns
 * the answer into a 304 with the same headers but those describing the body, and no body (section
 * 15.4.5). Any other status passes: preconditions are for answers that would be 2xx (section 13.2.1).
 */
const answerConditionally: onSendHookHandler = (request, reply, payload, done) => {
  if (reply.statusCode !== 200 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) {
    done(null, payload);
    return;
  }
  const etag = entityTagOf(payload);
  void reply.header('etag', etag).header('cache-control', REVALIDATE_EACH_USE);
  if (!ifNoneMatchNames(request.headers['if-none-match'], etag)) {
    done(null, payload);
    return;
  }
  void reply.code(304).removeHeader('content-type');
  // No payload: no Content-Length either. HEAD's hook, next, needs one to read the length from.
  done(null, request.method === 'HEAD' ? payload : null);
};
