import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { configDefault } from '@petstore/config';
import { IDEMPOTENCY_KEY_MAX_LENGTH, type IdempotentRequest } from '@petstore/domain';
import { KeepRawBodyWith } from '@petstore/http';
import { validationFailed } from '@petstore/http-errors';
import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';

/** The request header that makes a create safe to retry (draft-ietf-httpapi-idempotency-key-header), as Node names it. */
const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

export const IDEMPOTENCY_KEY_MESSAGE =
  `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters, ` +
  'as a quoted string ("8e03978e-40d5-43e8-bc93-6894a57f9324") or bare';

/** Either form of the key: bare visible ASCII not opening with a quote, or a structured-field string of it (RFC 8941 3.3.3). */
const IDEMPOTENCY_KEY_PATTERN =
  `^(?:[\\x21\\x23-\\x7e][\\x21-\\x7e]{0,${IDEMPOTENCY_KEY_MAX_LENGTH - 1}}` +
  `|"(?:[\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x22\\x5c]){1,${IDEMPOTENCY_KEY_MAX_LENGTH}}")$`;
const IDEMPOTENCY_KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);
/** The longest header value: a quoted key whose every character is escaped. */
const IDEMPOTENCY_KEY_VALUE_MAX_LENGTH = 2 + 2 * IDEMPOTENCY_KEY_MAX_LENGTH;
const UUID_EXAMPLE = '8e03978e-40d5-43e8-bc93-6894a57f9324';
const DEFAULT_LIFETIME_HOURS = Number(configDefault('IDEMPOTENCY_KEY_LIFETIME_SECONDS')) / 3600;

const IDEMPOTENCY_KEY_DESCRIPTION = [
  'Makes the create safe to retry (draft-ietf-httpapi-idempotency-key-header): a unique key per pet, such as a UUID,',
  `sent again with every retry of that create. 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters, as a`,
  `structured-field string (\`"${UUID_EXAMPLE}"\`) or bare (\`${UUID_EXAMPLE}\`): both name the same key.`,
  `The first request with a key is processed; for the key's lifetime (${DEFAULT_LIFETIME_HOURS} hours by default), a retry with the same key and the same body bytes gets`,
  'its answer again (201, same body, same `Location`, `Idempotent-Replayed: true`) and creates nothing. Keys are',
  "scoped to the API key: other clients' keys never meet yours. Only a 201 is kept: after any other answer the",
  'next try runs afresh.',
].join(' ');

/** The key an Idempotency-Key names, quoted (the draft) or bare (Stripe), by the pattern the document gives; a repeated header fails. */
export function parseIdempotencyKey(value: string): string | undefined {
  if (!IDEMPOTENCY_KEY.test(value)) return undefined;
  return value.startsWith('"') ? value.slice(1, -1).replace(/\\(["\\])/g, '$1') : value;
}

/** The key of a request's Idempotency-Key header: undefined when the header is absent, 400 VALIDATION_FAILED when it is malformed. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = typeof header === 'string' ? parseIdempotencyKey(header) : undefined;
  if (key === undefined) throw validationFailed(IDEMPOTENCY_KEY_MESSAGE);
  return key;
}

/** A keyed create's key, and the digest of the body's bytes as received: the same JSON written otherwise is another request. */
export type IdempotencyKeyed = Omit<IdempotentRequest, 'principal'>;

/**
 * The header documented (no example: Swagger UI would send one key with every pet tried out), with what it adds to the
 * operation's 400 and 500 (documentStandardAnswers), and the body's bytes kept with it.
 */
const documentedAndBodyKept: ParameterDecorator = (target, key) => {
  const method = key as string | symbol;
  applyDecorators(
    KeepRawBodyWith(IDEMPOTENCY_KEY_HEADER),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: IDEMPOTENCY_KEY_DESCRIPTION,
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_VALUE_MAX_LENGTH, pattern: IDEMPOTENCY_KEY_PATTERN },
    }),
    ApiResponse({ status: 400, description: 'or the Idempotency-Key is malformed' }),
    ApiResponse({ status: 500, description: 'a retry with the same `Idempotency-Key` gets the one outcome' }),
  )(target, method, Object.getOwnPropertyDescriptor(target, method) as PropertyDescriptor);
};

/**
 * The request's Idempotency-Key and its body's fingerprint: undefined without the header, 400 VALIDATION_FAILED when it is
 * malformed. Declaring it documents the header and keeps the body's bytes of a request that carries it.
 */
export const IdempotencyKey = createParamDecorator(
  (_data: unknown, context: ExecutionContext): IdempotencyKeyed | undefined => {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const key = idempotencyKeyOf(request.headers[IDEMPOTENCY_KEY_HEADER]);
    return key === undefined
      ? undefined
      : {
          key,
          fingerprint: createHash('sha256')
            .update(request.rawBody ?? '')
            .digest(),
        };
  },
  [documentedAndBodyKept],
);
