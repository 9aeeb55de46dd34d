import { validationFailed } from '@petstore/http-errors';
import { IDEMPOTENCY_KEY_MAX_LENGTH, isIdempotencyKey } from '@petstore/domain';

/** The request header that makes a create safe to retry (draft-ietf-httpapi-idempotency-key-header), as Node names it. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

export const IDEMPOTENCY_KEY_MESSAGE =
  `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters, ` +
  'as a quoted string ("8e03978e-40d5-43e8-bc93-6894a57f9324") or bare';

/** A structured-field string (RFC 8941 section 3.3.3): printable ASCII in double quotes, `"` and `\` escaped with `\`. */
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;

/** The key an Idempotency-Key names, quoted (the draft) or bare (Stripe); a repeated header arrives ", "-joined and fails. */
export function parseIdempotencyKey(value: string): string | undefined {
  const quoted = SF_STRING.exec(value);
  const key = quoted ? quoted[1].replace(/\\(["\\])/g, '$1') : value.startsWith('"') ? undefined : value;
  return key !== undefined && isIdempotencyKey(key) ? key : undefined;
}

/** The key of a request's Idempotency-Key header: undefined when the header is absent, 400 VALIDATION_FAILED when it is malformed. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = typeof header === 'string' ? parseIdempotencyKey(header) : undefined;
  if (key === undefined) throw validationFailed(IDEMPOTENCY_KEY_MESSAGE);
  return key;
}
