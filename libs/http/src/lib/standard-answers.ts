import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants.js';
import { DECORATORS } from '@nestjs/swagger';
import {
  type ApiHeader,
  type ApiHeaders,
  ApiErrorResponse,
  ApiServerErrorResponses,
  bodyTooLargeMessage,
  HttpErrorCode,
} from '@petstore/http-errors';
import { BODY_LIMIT_BYTES, JSON_MAX_DEPTH } from './json-body.parser';
import { documentedAnswerHeadersOf, routePolicyOf } from './route-policy';
import type { RouteSchemas } from './route-schemas';

/** Realm named in every WWW-Authenticate challenge. */
export const AUTH_REALM = 'petstore';
/** Every rate limit counts in fixed windows of this many seconds: the longest wait a 429 asks for. */
export const RATE_LIMIT_WINDOW_SECONDS = 60;
/** The names of the rate-limit policies, as the RateLimit header fields give them. */
export const RATE_LIMIT_POLICIES = { perKey: 'per-key', authFailures: 'auth-failures' } as const;

const POLICY = `"(${Object.values(RATE_LIMIT_POLICIES).join('|')})"`;

/** The RateLimit header fields (draft-ietf-httpapi-ratelimit-headers) on every answer of an authenticated operation. */
const RATE_LIMIT_HEADERS: ApiHeaders = {
  'RateLimit-Policy': {
    description:
      'The limit that applies: `"per-key"` (requests per key) or `"auth-failures"` (failed authentications per client address); `q` requests per window of `w` seconds',
    schema: {
      type: 'string',
      pattern: `^${POLICY};q=[1-9][0-9]{0,8};w=${RATE_LIMIT_WINDOW_SECONDS}$`,
      maxLength: 64,
      example: '"per-key";q=6000;w=60',
    },
  },
  RateLimit: {
    description: 'What is left of it: `r` requests remaining, `t` seconds until the window resets',
    schema: { type: 'string', pattern: `^${POLICY};r=[0-9]{1,9};t=[0-9]{1,2}$`, maxLength: 64, example: '"per-key";r=5999;t=42' },
  },
};

const WWW_AUTHENTICATE: ApiHeader = {
  description: `The bearer challenge: \`Bearer realm="${AUTH_REALM}"\`, with \`error="invalid_token"\` or \`error="invalid_request"\` when a credential was sent`,
  schema: {
    type: 'string',
    pattern: `^Bearer realm="${AUTH_REALM}"(, error="invalid_(request|token)")?$`,
    maxLength: 64,
    example: `Bearer realm="${AUTH_REALM}", error="invalid_token"`,
  },
};

const RATE_LIMITED_RETRY_AFTER: ApiHeader = {
  description: 'Seconds until the rate-limit window resets',
  schema: { type: 'integer', format: 'int32', minimum: 1, maximum: RATE_LIMIT_WINDOW_SECONDS, example: 42 },
};

type Answers = Record<string, { readonly description?: string; readonly headers?: ApiHeaders }>;

/**
 * Documents the answers every route of its kind can give, from what it declares: 400 from its inputs, 413 and 415 from a body,
 * 401 and 429 unless Public, 500 and 503 always; the RateLimit fields and its RouteHeaders on every answer. An answer the
 * handler documents itself adds its words and headers to the standard one (an Idempotency-Key's 400, say).
 */
export function documentStandardAnswers(controller: Type, method: string, schema: RouteSchemas): void {
  const prototype = controller.prototype as object;
  const descriptor = Object.getOwnPropertyDescriptor(prototype, method) as PropertyDescriptor;
  const handler = descriptor.value as object;
  const declared = answersOf(handler);
  const authenticated = !routePolicyOf(handler).public;
  const httpMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
  Reflect.defineMetadata(DECORATORS.API_RESPONSE, {}, handler);
  const standard = [
    ApiErrorResponse(400, invalidInputDescription(schema), HttpErrorCode.ValidationFailed, exampleRefusalOf(schema)),
    ...(schema.body ? bodyRefusals() : []),
    ...(authenticated ? authenticationRefusals() : []),
    ApiServerErrorResponses({ writes: httpMethod !== RequestMethod.GET && httpMethod !== RequestMethod.HEAD }),
  ];
  for (const decorator of standard) decorator(prototype, method, descriptor);
  const everyAnswer = { ...documentedAnswerHeadersOf(handler), ...(authenticated && RATE_LIMIT_HEADERS) };
  Reflect.defineMetadata(DECORATORS.API_RESPONSE, withHeaders(merged(answersOf(handler), declared), everyAnswer), handler);
}

function answersOf(handler: object): Answers {
  return { ...(Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) as Answers | undefined) };
}

// The standard answer's body and example; the handler's words after its own, and its headers beside them.
function merged(standard: Answers, declared: Answers): Answers {
  const answers = { ...declared };
  for (const [status, answer] of Object.entries(standard)) {
    const own = declared[status];
    answers[status] = own
      ? {
          ...own,
          ...answer,
          description: [answer.description, own.description].filter(Boolean).join('; '),
          headers: { ...answer.headers, ...own.headers },
        }
      : answer;
  }
  return answers;
}

function withHeaders(answers: Answers, headers: ApiHeaders): Answers {
  return Object.fromEntries(
    Object.entries(answers).map(([status, answer]) => [status, { ...answer, headers: { ...answer.headers, ...headers } }]),
  );
}

function invalidInputDescription(schema: RouteSchemas): string {
  const refused = [
    ...(schema.params ? ['a path parameter is invalid'] : []),
    'a query parameter is invalid, unknown or given twice',
    ...(schema.body
      ? [
          'the body lacks required fields, contains invalid values, is not JSON, is not UTF-8 (or names another charset), ' +
            `or nests deeper than ${JSON_MAX_DEPTH} levels`,
        ]
      : []),
  ].join('; ');
  return refused[0].toUpperCase() + refused.slice(1);
}

interface CheckedObject {
  readonly properties?: Record<string, { readonly errorMessage?: Record<string, string> }>;
  readonly errorMessage?: { readonly required?: Record<string, string>; readonly additionalProperties?: string };
}

/** What the route's first rule says when broken: a real refusal of its, not a message copied into the document. */
function exampleRefusalOf(schema: RouteSchemas): string {
  const [body, params, query] = [schema.body, schema.params, schema.querystring] as (CheckedObject | undefined)[];
  const required = Object.values(body?.errorMessage?.required ?? {})[0];
  const ruleOf = (checked?: CheckedObject) => Object.values(Object.values(checked?.properties ?? {})[0]?.errorMessage ?? {}).at(-1);
  return required ?? ruleOf(params) ?? ruleOf(query) ?? query?.errorMessage?.additionalProperties ?? '';
}

function bodyRefusals() {
  return [
    ApiErrorResponse(
      413,
      `Body larger than ${BODY_LIMIT_BYTES / 1024} KiB`,
      HttpErrorCode.PayloadTooLarge,
      bodyTooLargeMessage(BODY_LIMIT_BYTES),
    ),
    ApiErrorResponse(415, 'Body is not application/json', HttpErrorCode.UnsupportedMediaType, 'Content-Type must be application/json'),
  ];
}

function authenticationRefusals() {
  return [
    ApiErrorResponse(
      401,
      'API key missing or invalid, or more than one Authorization header',
      HttpErrorCode.Unauthorized,
      'Invalid API key',
      { 'WWW-Authenticate': WWW_AUTHENTICATE },
    ),
    ApiErrorResponse(
      429,
      "Too many requests: the key's rate limit, or the client address's allowance of failed authentications, is used up until the window resets",
      HttpErrorCode.RateLimited,
      'Rate limit exceeded; retry in 42 s',
      { 'Retry-After': RATE_LIMITED_RETRY_AFTER },
    ),
  ];
}
