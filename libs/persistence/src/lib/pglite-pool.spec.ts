import { createTestDatabase } from '../testing';
import { embeddedDatabaseOptions } from './embedded-database';
import { PGlitePool } from './pglite-pool';

// The application's pool on PGlite: each its own database, whatever else the process opened.

async function newPool(): Promise<PGlitePool> {
  const { location } = await createTestDatabase();
  if (!('tarball' in location)) throw new Error('PGlite only: TEST_DATABASE_URL names a PostgreSQL server');
  return new PGlitePool(await embeddedDatabaseOptions(location));
}

const end = (pool: PGlitePool) => pool.end();

(process.env.TEST_DATABASE_URL ? describe.skip : describe)('PGlitePool', () => {
  let first: PGlitePool;
  let second: PGlitePool;
  beforeAll(async () => {
    [first, second] = await Promise.all([newPool(), newPool()]);
  });
  afterAll(() => Promise.all([first, second].map((pool) => end(pool).catch(() => undefined))));

  it('opens a database of its own, which ending another pool leaves open', async () => {
    await first.query('CREATE TABLE only_in_first (n int)');
    const third = await newPool();
    await expect(third.query('SELECT 1 FROM only_in_first')).rejects.toThrow(/only_in_first/);
    await end(third);

    await expect(second.query('SELECT 1 FROM only_in_first')).rejects.toThrow(/only_in_first/);
    expect((await first.query('SELECT count(*)::int AS n FROM only_in_first')).rows).toEqual([{ n: 0 }]);
  });

  it('runs several statements without values, answering with the last one', async () => {
    expect((await second.query('SELECT 1 AS a; SELECT 2 AS b')).rows).toEqual([{ b: 2 }]);
  });

  it('binds values to one statement', async () => {
    expect((await second.query('SELECT $1::int + 1 AS n', [41])).rows).toEqual([{ n: 42 }]);
  });

  it('hands itself out as the one client', async () => {
    const client = await new Promise((resolve, reject) =>
      second.connect((error, connected) => (error ? reject(error) : resolve(connected))),
    );
    expect(client).toBe(second);
  });
});
