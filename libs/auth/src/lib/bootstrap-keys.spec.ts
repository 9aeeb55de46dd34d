import { BootstrapKeys } from './bearer.strategy';

describe('BootstrapKeys.verify', () => {
  const store = new BootstrapKeys(['first-key', 'second-key']);

  it('names a key by its position', () => {
    expect(store.verify('first-key')).toEqual({ keyId: 'env-1' });
    expect(store.verify('second-key')).toEqual({ keyId: 'env-2' });
  });

  it.each([
    ['a wrong key', 'third-key'],
    ['an empty string', ''],
    ['a prefix of a key', 'first-ke'],
    ['a key plus a character', 'first-keyx'],
    ['a key with other case', 'FIRST-KEY'],
    ['a key with a trailing space', 'first-key '],
    ['both keys joined', 'first-key,second-key'],
  ])('refuses %s', (_label, token) => {
    expect(store.verify(token)).toBeUndefined();
  });

  it('refuses every token when it holds no key', () => {
    const empty = new BootstrapKeys([]);
    expect(empty.verify('')).toBeUndefined();
    expect(empty.verify('first-key')).toBeUndefined();
  });
});
