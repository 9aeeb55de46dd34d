import { Registry } from 'prom-client';
import { Database } from './database';
import { DatabaseMetrics } from './database-metrics';
import { mayWrite, Statement } from './named-statement';
import { SqlApiKeyRepository } from './sql-api-key.repository';
import { SqlPetRepository } from './sql-pet.repository';

/** A Database as the application makes it, with its repositories (nothing connected: only the constructors run). */
function applicationDatabase(): { database: Database; declared: Statement[] } {
  const declare = jest.spyOn(Database.prototype, 'declare');
  const database = new Database({ url: 'postgres://127.0.0.1:1/unused', preparedStatements: true }, new DatabaseMetrics(new Registry()));
  new SqlPetRepository(database);
  new SqlApiKeyRepository(database);
  const declared = declare.mock.calls.flatMap(([statements]) => statements);
  declare.mockRestore();
  return { database, declared };
}

describe('Statement', () => {
  it('refuses, as the application is made, a name its Database already took for another statement, naming the fix', () => {
    const { database } = applicationDatabase();
    expect(() => database.declare([Statement.named('pets_find_by_id', 'SELECT 1')])).toThrow(
      'The statement name "pets_find_by_id" is given to two different statements: give each a name of its own',
    );
  });

  it('refuses to run a statement its repository never declared, naming the fix', async () => {
    const { database } = applicationDatabase();
    await expect(database.query(Statement.named('pets_undeclared', 'SELECT 1'), [])).rejects.toThrow(
      'The statement "pets_undeclared" was never declared: add it to its repository\'s database.declare([…])',
    );
  });

  it('keeps the statements of two applications in one process apart', () => {
    const [first, second] = [applicationDatabase().database, applicationDatabase().database];
    expect(() => first.declare([Statement.named('test_own', 'SELECT 1')])).not.toThrow();
    expect(() => second.declare([Statement.named('test_own', 'SELECT 2')])).not.toThrow();
  });

  it('is the only way to make one: a literal of the same shape is no Statement', () => {
    // @ts-expect-error -- npm test type-checks: a literal would bypass the reading of mayWrite.
    const literal: Statement = { name: 'test_literal', text: 'UPDATE pets SET name = $1', mayWrite: false, prepare: true };
    expect(literal).not.toBeInstanceOf(Statement);
  });

  it('derives whether a statement writes from its text: a write copied from a read is a write', () => {
    expect(Statement.named('test_read', 'SELECT id FROM pets WHERE id = $1').mayWrite).toBe(false);
    expect(Statement.named('test_copied', 'UPDATE pets SET name = $2 WHERE id = $1').mayWrite).toBe(true);
  });

  it.each([
    'SELECT id FROM pets',
    '  select 1',
    '(SELECT 1) UNION (SELECT 2)',
    `WITH recent AS (SELECT id FROM pets ORDER BY id DESC LIMIT 5) SELECT * FROM recent`,
    `SELECT current_setting('transaction_read_only') = 'on'`,
  ])('takes %p for a read', (text) => {
    expect(mayWrite(text)).toBe(false);
  });

  it.each([
    'INSERT INTO pets (name) VALUES ($1)',
    'update pets SET name = $1',
    'DELETE FROM pets',
    'MERGE INTO pets USING x ON true WHEN MATCHED THEN DELETE',
    'TRUNCATE pets',
    `WITH moved AS (DELETE FROM pets RETURNING id) SELECT count(*) FROM moved`,
    `WITH claim AS (SELECT 1) INSERT INTO pets (name) SELECT 'a' FROM claim`,
    '-- SELECT\nINSERT INTO pets DEFAULT VALUES',
    '/* SELECT */ DELETE FROM pets',
    'SELECT * INTO pets_copy FROM pets',
    `SELECT nextval('pets_id_seq')`,
    'SELECT id FROM pets FOR UPDATE',
    'CALL refresh()',
    'VALUES (1)',
  ])('takes %p for a write (anything not plainly a read)', (text) => {
    expect(mayWrite(text)).toBe(true);
  });

  it("takes the repositories' lookups, and only those, for reads", () => {
    const reads = applicationDatabase().declared.filter(({ mayWrite }) => !mayWrite);
    expect(reads.map(({ name }) => name).sort()).toEqual([
      'api_keys_find_by_prefix',
      'api_keys_list',
      'idempotency_records_find',
      'pets_find_by_id',
      'pets_list',
      'pets_list_by_status',
      'read_only',
    ]);
  });
});
