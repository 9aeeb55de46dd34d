import type { ApiKeyRecord, ApiKeyRef, ApiKeyRevocation, StoredApiKey } from '@petstore/domain';
import { ApiKeyRepository } from '@petstore/domain';
import { IssuedKeys, InvalidKeyNameError, KEY_CACHE_TTL_MS, LAST_USED_PRECISION_MS } from './issued-keys';

/** An in-memory key store that counts how often it is asked for a key. */
class FakeRepository extends ApiKeyRepository {
  readonly keys: StoredApiKey[] = [];
  lookups = 0;
  touches: string[] = [];

  async insert(key: { name: string; prefix: string; secretSha256: Buffer }): Promise<ApiKeyRecord | undefined> {
    if (this.keys.some((stored) => stored.prefix === key.prefix)) return undefined;
    const stored = { ...key, id: String(this.keys.length + 1), createdAt: new Date(), lastUsedAt: null, revokedAt: null };
    this.keys.push(stored);
    return stored;
  }

  async findByPrefix(prefix: string): Promise<StoredApiKey | undefined> {
    this.lookups += 1;
    return this.keys.find((key) => key.prefix === prefix);
  }

  async list(): Promise<ApiKeyRecord[]> {
    return this.keys;
  }

  async revoke(ref: ApiKeyRef): Promise<ApiKeyRevocation | undefined> {
    const index = this.keys.findIndex((key) => ('id' in ref ? key.id === ref.id : key.prefix === ref.prefix));
    if (index < 0) return undefined;
    const alreadyRevoked = this.keys[index].revokedAt !== null;
    this.keys[index] = { ...this.keys[index], revokedAt: this.keys[index].revokedAt ?? new Date() };
    return { key: this.keys[index], alreadyRevoked };
  }

  async touch(id: string): Promise<void> {
    this.touches.push(id);
  }
}

describe('IssuedKeys', () => {
  let repository: FakeRepository;
  let now: number;
  let keys: IssuedKeys;

  beforeEach(() => {
    repository = new FakeRepository();
    now = 1_000_000;
    keys = new IssuedKeys(repository, { now: () => now });
  });

  it('accepts a key it created, naming it by its prefix', async () => {
    const { key, token } = await keys.create('ci');
    expect(key.name).toBe('ci');
    await expect(keys.verify(token)).resolves.toEqual({ keyId: key.prefix });
  });

  it('keeps nothing of the secret but its digest', async () => {
    const { token } = await keys.create('ci');
    const stored = JSON.stringify(repository.keys);
    // The secret follows ps_<prefix>_, and may itself hold an underscore (base64url).
    expect(stored).not.toContain(token.split('_').slice(2).join('_'));
  });

  it('refuses a wrong secret under a valid prefix', async () => {
    const { token } = await keys.create('ci');
    const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    await expect(keys.verify(wrong)).resolves.toBeUndefined();
  });

  it('refuses an unknown prefix and a token not shaped like a key, without remembering them', async () => {
    await expect(keys.verify(`ps_000000000000_${'a'.repeat(43)}`)).resolves.toBeUndefined();
    await expect(keys.verify(`ps_000000000000_${'a'.repeat(43)}`)).resolves.toBeUndefined();
    await expect(keys.verify('not-a-key')).resolves.toBeUndefined();
    expect(repository.lookups).toBe(2);
  });

  it('refuses a revoked key on the next request', async () => {
    const { key, token } = await keys.create('ci');
    await keys.verify(token);
    await keys.revoke({ prefix: key.prefix });
    await expect(keys.verify(token)).resolves.toBeUndefined();
  });

  it('says whether it revoked a key now or found it revoked already, and undefined for no such key', async () => {
    const { key } = await keys.create('ci');
    await expect(keys.revoke({ id: key.id })).resolves.toMatchObject({ key: { id: key.id }, alreadyRevoked: false });
    await expect(keys.revoke({ prefix: key.prefix })).resolves.toMatchObject({ key: { id: key.id }, alreadyRevoked: true });
    await expect(keys.revoke({ id: '999' })).resolves.toBeUndefined();
  });

  it('reads a busy key once per period, and sees a revocation made elsewhere within it', async () => {
    const { key, token } = await keys.create('ci');
    await Promise.all([keys.verify(token), keys.verify(token), keys.verify(token)]);
    now += KEY_CACHE_TTL_MS - 1;
    await keys.verify(token);
    expect(repository.lookups).toBe(1);

    await repository.revoke({ id: key.id }); // another instance revokes it
    now += 1;
    await expect(keys.verify(token)).resolves.toBeUndefined();
    expect(repository.lookups).toBe(2);
  });

  it('records the use of a key at most once per precision period', async () => {
    const { key, token } = await keys.create('ci');
    await keys.verify(token);
    now += LAST_USED_PRECISION_MS - 1;
    await keys.verify(token);
    expect(repository.touches).toEqual([key.id]);
    now += 1;
    await keys.verify(token);
    expect(repository.touches).toEqual([key.id, key.id]);
  });

  it('does not record a use for a wrong secret', async () => {
    const { token } = await keys.create('ci');
    await keys.verify(`${token.slice(0, -2)}__`);
    expect(repository.touches).toEqual([]);
  });

  it('lets a failed lookup fail the request, and tries again on the next', async () => {
    const { token } = await keys.create('ci');
    jest.spyOn(repository, 'findByPrefix').mockRejectedValueOnce(new Error('database down'));
    await expect(keys.verify(token)).rejects.toThrow('database down');
    await expect(keys.verify(token)).resolves.toBeDefined();
  });

  it('looks up a never-seen prefix only when the budget allows it', async () => {
    const { token } = await keys.create('ci');
    const unknown = `ps_${'0'.repeat(12)}_${'A'.repeat(43)}`;
    const noBudget = jest.fn(async () => false);

    await expect(keys.verify(unknown, noBudget)).resolves.toBeUndefined();
    await expect(keys.verify(token, noBudget)).resolves.toBeUndefined();
    expect(repository.lookups).toBe(0);
    await expect(keys.verify(unknown, async () => true)).resolves.toBeUndefined();
    expect(repository.lookups).toBe(1);
  });

  it('always checks a prefix it has seen valid, whatever the budget, so a flood locks out no valid key', async () => {
    const { token } = await keys.create('ci');
    await expect(keys.verify(token)).resolves.toBeDefined();
    now += KEY_CACHE_TTL_MS;
    const noBudget = jest.fn(async () => false);
    await expect(keys.verify(token, noBudget)).resolves.toBeDefined();
    expect(noBudget).not.toHaveBeenCalled();
    expect(repository.lookups).toBe(2);
  });

  it('shares one budgeted lookup between concurrent requests for one prefix', async () => {
    const { token } = await keys.create('ci');
    const budget = jest.fn(async () => true);
    await Promise.all(Array.from({ length: 20 }, () => keys.verify(token, budget)));
    expect(budget).toHaveBeenCalledTimes(1);
    expect(repository.lookups).toBe(1);
  });

  it.each(['', ' ci', 'ci ', 'c\ni', 'x'.repeat(101)])('refuses the key name %p', async (name) => {
    await expect(keys.create(name)).rejects.toThrow(InvalidKeyNameError);
  });

  it('accepts a name of 100 characters, any script', async () => {
    await expect(keys.create('ключ '.repeat(20).trim().padEnd(100, 'x'))).resolves.toBeDefined();
  });
});

describe('IssuedKeys.create when every prefix is taken', () => {
  it('gives up after a few attempts instead of looping', async () => {
    const repository = new FakeRepository();
    const insert = jest.spyOn(repository, 'insert').mockResolvedValue(undefined);
    await expect(new IssuedKeys(repository).create('ci')).rejects.toThrow('No free key prefix');
    expect(insert).toHaveBeenCalledTimes(3);
  });
});
