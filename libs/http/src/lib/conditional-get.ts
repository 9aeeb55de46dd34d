import { applyDecorators } from '@nestjs/common';
import { ApiHeader as ApiRequestHeader, ApiResponse, type ApiResponseNoStatusOptions } from '@nestjs/swagger';
import type { ApiHeader, ApiHeaders } from '@petstore/http-errors';
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import { entityTagOf, ifNoneMatchNames, REVALIDATE_EACH_USE } from './entity-tag';
import { RoutePolicy } from './route-policy';

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

/** Makes the route a conditional GET (RFC 9110 §13) and documents it, in one decorator so that the two cannot disagree. */
export function ApiConditionalGet({ headers, ...answer }: ApiResponseNoStatusOptions & { readonly headers?: ApiHeaders }) {
  const answerHeaders = { ETag: ETAG, 'Cache-Control': CACHE_CONTROL, ...headers };
  return applyDecorators(
    RoutePolicy({ conditionalGet: true }),
    ApiRequestHeader({
      name: 'If-None-Match',
      required: false,
      description: IF_NONE_MATCH_DESCRIPTION,
      schema: { type: 'string', maxLength: 4096, pattern: IF_NONE_MATCH_PATTERN },
    }),
    ApiResponse({ ...answer, status: 200, headers: answerHeaders }),
    ApiResponse({
      status: 304,
      description: 'Not modified: `If-None-Match` names the current answer. No body; the headers of the 200, its `ETag` included',
      headers: answerHeaders,
    }),
  );
}

/** Answers each ApiConditionalGet route by a hook of its own, so other routes pay nothing. Register it before the routes. */
export function registerConditionalGets(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    if (!route.config?.conditionalGet) return;
    const methods = [route.method].flat();
    if (methods.some((method) => method !== 'GET' && method !== 'HEAD')) {
      throw new Error(`${methods.join(', ')} ${route.url} is declared a conditional GET: only GET (and HEAD) answer conditionally`);
    }
    // First: Fastify's onSend hook on the HEAD route it makes from the GET drops the payload this one hashes.
    route.onSend = [answerConditionally, ...[route.onSend ?? []].flat()];
  });
}

// Only a 200 is made conditional: preconditions are for answers that would be 2xx (RFC 9110 §13.2.1).
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
