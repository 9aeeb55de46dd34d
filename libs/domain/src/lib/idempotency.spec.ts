import { IDEMPOTENCY_KEY_MAX_LENGTH, isIdempotencyKey } from './idempotency';

describe('isIdempotencyKey', () => {
  it.each([
    '8e03978e-40d5-43e8-bc93-6894a57f9324',
    'a',
    '!',
    '~',
    'x'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH),
    'key"with\\quotes',
    'order/42:retry#1',
  ])('accepts %p', (key) => {
    expect(isIdempotencyKey(key)).toBe(true);
  });

  it.each(['', 'x'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH + 1), 'a b', ' a', 'a\t', 'a\u0000', 'a\u007f', 'clé', '🔑'])('refuses %p', (key) => {
    expect(isIdempotencyKey(key)).toBe(false);
  });
});
