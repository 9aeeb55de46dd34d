import { createHash } from 'node:crypto';
import { generateApiKey, parseApiKey, sha256 } from './api-key-secret';

describe('generateApiKey', () => {
  it('makes ps_<12 hex>_<43 base64url> keys whose stored digest is the SHA-256 of the secret', () => {
    const key = generateApiKey();
    expect(key.token).toMatch(/^ps_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(key.token.startsWith(`${key.prefix}_`)).toBe(true);
    expect(key.secretSha256).toEqual(sha256(key.token.slice(key.prefix.length + 1)));
  });

  it('never makes the same key twice', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => generateApiKey().token));
    expect(tokens.size).toBe(1000);
  });
});

describe('parseApiKey', () => {
  it('splits a key into its prefix and secret, even when the secret holds underscores', () => {
    const secret = `_${'a'.repeat(41)}_`;
    expect(parseApiKey(`ps_0123456789ab_${secret}`)).toEqual({ prefix: 'ps_0123456789ab', secret });
  });

  it('reads back every generated key', () => {
    const key = generateApiKey();
    expect(parseApiKey(key.token)?.prefix).toBe(key.prefix);
  });

  it.each([
    ['an environment key', 'dev_abc'],
    ['a short secret', `ps_0123456789ab_${'a'.repeat(42)}`],
    ['a long secret', `ps_0123456789ab_${'a'.repeat(44)}`],
    ['an upper-case prefix', `ps_0123456789AB_${'a'.repeat(43)}`],
    ['another mark', `pk_0123456789ab_${'a'.repeat(43)}`],
    ['a secret with padding', `ps_0123456789ab_${'a'.repeat(42)}=`],
    ['a prefix alone', 'ps_0123456789ab'],
  ])('refuses %s', (_label, token) => {
    expect(parseApiKey(token)).toBeUndefined();
  });
});

describe('sha256', () => {
  it("is the SHA-256 of the text's UTF-8, byte for byte what the stored keys were hashed with", () => {
    for (const text of ['', 'abc', 'ps_0123456789ab_secret', 'clé-ключ-鍵-🔑']) {
      expect(sha256(text)).toEqual(createHash('sha256').update(text, 'utf8').digest());
    }
    expect(sha256('abc').toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
