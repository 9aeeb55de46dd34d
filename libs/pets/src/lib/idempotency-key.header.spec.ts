import { ApiException } from '@petstore/http-errors';
import { IDEMPOTENCY_KEY_MESSAGE, idempotencyKeyOf, parseIdempotencyKey } from './idempotency-key.header';

const UUID = '8e03978e-40d5-43e8-bc93-6894a57f9324';

describe('parseIdempotencyKey', () => {
  it.each([
    ['the draft form, a structured-field string', `"${UUID}"`, UUID],
    ['the bare token of Stripe-style clients', UUID, UUID],
    ['a one-character key', 'a', 'a'],
    ['a one-character string', '"a"', 'a'],
    ['255 characters bare', 'k'.repeat(255), 'k'.repeat(255)],
    ['255 characters quoted', `"${'k'.repeat(255)}"`, 'k'.repeat(255)],
    ['255 characters quoted, some of them escaped', `"${'\\"'.repeat(100)}${'k'.repeat(155)}"`, `${'"'.repeat(100)}${'k'.repeat(155)}`],
    ['an escaped quote and backslash', '"a\\"b\\\\c"', 'a"b\\c'],
    ['every kind of visible ASCII', "!#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~", "!#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~"],
    ['a bare token with a quote inside', 'a"b', 'a"b'],
  ])('reads %s', (_case, value, key) => {
    expect(parseIdempotencyKey(value)).toBe(key);
  });

  it.each([
    ['an empty value', ''],
    ['an empty string', '""'],
    ['256 characters bare', 'k'.repeat(256)],
    ['256 characters quoted', `"${'k'.repeat(256)}"`],
    ['a space in a bare key', 'a b'],
    ['a space in a quoted key', '"a b"'],
    ['a repeated header, joined by Node', `${UUID}, ${UUID}`],
    ['a tab', 'a\tb'],
    ['a control character', 'a\u0001b'],
    ['DEL', 'a\u007fb'],
    ['a Latin-1 letter', 'clé'],
    ['a non-ASCII character in a string', '"clé"'],
    ['a string without its closing quote', '"abc'],
    ['a string with parameters', '"abc";v=1'],
    ['a string followed by more', '"abc"def'],
    ['an unescaped quote inside a string', '"a"b"'],
    ['a lone backslash in a string', '"a\\b"'],
    ['a trailing backslash in a string', '"abc\\"'],
  ])('refuses %s', (_case, value) => {
    expect(parseIdempotencyKey(value)).toBeUndefined();
  });
});

describe('idempotencyKeyOf', () => {
  it('passes a request without the header', () => {
    expect(idempotencyKeyOf(undefined)).toBeUndefined();
  });

  it('gives the key of a well-formed header', () => {
    expect(idempotencyKeyOf(`"${UUID}"`)).toBe(UUID);
  });

  it.each([['a b'], [''], [[UUID, UUID]]])('answers 400 VALIDATION_FAILED to %p, saying what a key may be', (header) => {
    let error: unknown;
    try {
      idempotencyKeyOf(header);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiException);
    expect((error as ApiException).getStatus()).toBe(400);
    expect((error as ApiException).code).toBe('VALIDATION_FAILED');
    expect((error as ApiException).message).toBe(IDEMPOTENCY_KEY_MESSAGE);
  });
});
