import { randomBytes } from 'node:crypto';
import { openTestDatabase } from '../testing';
import { SqlApiKeyRepository } from './sql-api-key.repository';

// The issued keys' SQL on a real database: embedded PGlite, or PostgreSQL when TEST_DATABASE_URL is set.

describe('SqlApiKeyRepository', () => {
  let close: () => Promise<void>;
  let keys: SqlApiKeyRepository;
  beforeAll(async () => {
    const opened = await openTestDatabase();
    close = opened.close;
    keys = new SqlApiKeyRepository(opened.database);
  });
  afterAll(() => close?.());

  const newKey = (name = 'ci') => ({ name, prefix: `ps_${randomBytes(6).toString('hex')}`, secretSha256: randomBytes(32) });

  it('stores a key, finds it with its secret digest, and refuses its prefix a second time', async () => {
    const key = newKey();
    const record = await keys.insert(key);
    expect(record).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: 'ci',
      prefix: key.prefix,
      createdAt: expect.any(Date),
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(await keys.findByPrefix(key.prefix)).toEqual({ ...record, secretSha256: key.secretSha256 });
    expect(await keys.insert({ ...newKey(), prefix: key.prefix })).toBeUndefined();
    expect(await keys.findByPrefix('ps_unknown')).toBeUndefined();
  });

  it('lists keys oldest first', async () => {
    const first = await keys.insert(newKey('first'));
    const second = await keys.insert(newKey('second'));
    const ids = (await keys.list()).map((record) => record.id);
    expect(ids.indexOf(first!.id)).toBeLessThan(ids.indexOf(second!.id));
  });

  it('revokes by id or prefix, and says when the key was revoked already, keeping the time of the first revocation', async () => {
    const record = (await keys.insert(newKey()))!;
    const first = await keys.revoke({ id: record.id });
    expect(first).toEqual({ key: { ...record, revokedAt: expect.any(Date) }, alreadyRevoked: false });
    expect(await keys.revoke({ prefix: record.prefix })).toEqual({ key: first?.key, alreadyRevoked: true });
    expect(await keys.revoke({ id: record.id })).toEqual({ key: first?.key, alreadyRevoked: true });
  });

  // On PostgreSQL they run at once, on as many connections; PGlite runs them one after another.
  it('finds exactly one first among revocations at once', async () => {
    const record = (await keys.insert(newKey()))!;
    const refs = [{ id: record.id }, { prefix: record.prefix }];
    const revocations = await Promise.all(Array.from({ length: 6 }, (_, index) => keys.revoke(refs[index % 2])));
    expect(revocations.filter((revocation) => revocation?.alreadyRevoked === false)).toHaveLength(1);
  });

  it('answers undefined for a key that does not exist, an id out of int64 or with leading zeros included', async () => {
    const record = (await keys.insert(newKey()))!;
    expect(await keys.revoke({ id: `0${record.id}` })).toBeUndefined();
    expect(await keys.revoke({ id: '9223372036854775807' })).toBeUndefined();
    expect(await keys.revoke({ id: '9223372036854775808' })).toBeUndefined();
    expect(await keys.revoke({ prefix: 'ps_nothing' })).toBeUndefined();
  });

  it('records when a key was used', async () => {
    const record = (await keys.insert(newKey()))!;
    await keys.touch(record.id);
    expect((await keys.findByPrefix(record.prefix))?.lastUsedAt).toEqual(expect.any(Date));
  });
});
