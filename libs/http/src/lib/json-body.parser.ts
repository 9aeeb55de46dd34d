import type { FastifyInstance } from 'fastify';
import { parse, parseNumberAndBigInt } from 'lossless-json';
import { ApiException, HttpErrorCode } from '@petstore/http-errors';

/** Largest request body accepted, in bytes; larger bodies get 413. */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** How deeply a body may nest; keeps the parser and the validation far from overflowing the stack (docs/security.md). */
export const JSON_MAX_DEPTH = 32;

const OPEN_BRACKET = new Set(['[', '{']);
const CLOSE_BRACKET = new Set([']', '}']);

/** JSON text is UTF-8 (RFC 8259); anything else would be stored as U+FFFD instead of verbatim. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

const malformed = (message: string) => new ApiException(HttpErrorCode.MalformedJson, 400, message);

/** Decodes a request body as strict UTF-8: bytes that are not UTF-8 are refused, not replaced. */
export function decodeUtf8Body(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw malformed('Request body is not valid UTF-8');
  }
}

/** Parses a body exactly (integers as bigint), refusing repeated keys with other values and deep nesting; "__proto__" stays an own key. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw malformed('Request body is empty; expected a JSON object');
  if (nestingDepth(text) > JSON_MAX_DEPTH) throw malformed(`Request body nests objects or arrays deeper than ${JSON_MAX_DEPTH} levels`);
  try {
    return parse(text, null, parseNumberAndBigInt);
  } catch (error) {
    const reason = error instanceof SyntaxError ? `: ${error.message}` : '';
    throw malformed(`Request body is not valid JSON${reason}`);
  }
}

/** The deepest nesting of brackets outside strings; one pass, no recursion, stops early past the limit. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length && deepest <= JSON_MAX_DEPTH; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (OPEN_BRACKET.has(char)) {
      deepest = Math.max(deepest, ++depth);
    } else if (CLOSE_BRACKET.has(char)) {
      depth--;
    }
  }
  return deepest;
}

const CHARSET_PARAMETER = /;\s*charset\s*=\s*"?([^";\s]*)/i;
const UTF8_NAMES = new Set(['utf-8', 'utf8']);

function assertUtf8Charset(contentType: string | undefined): void {
  const charset = CHARSET_PARAMETER.exec(contentType ?? '')?.[1];
  if (charset !== undefined && !UTF8_NAMES.has(charset.toLowerCase())) {
    throw new ApiException(HttpErrorCode.UnsupportedCharset, 400, 'Content-Type charset must be utf-8, the encoding of JSON');
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The body's bytes as received, only on a route that asks (KeepRawBodyWith) and a request with its header. */
    rawBody: Buffer | null;
  }
}

/** Accepts only UTF-8 application/json bodies, parsed exactly; keeps `rawBody` where the route asks (KeepRawBodyWith). */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.decorateRequest('rawBody', null);
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES }, (request, body, done) => {
    try {
      assertUtf8Charset(request.headers['content-type']);
      const header = request.routeOptions.config.keepRawBodyWith;
      if (header !== undefined && request.headers[header] !== undefined) request.rawBody = body as Buffer;
      done(null, parseJsonBody(decodeUtf8Body(body as Buffer)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
