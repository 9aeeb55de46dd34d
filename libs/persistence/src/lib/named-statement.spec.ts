import { mayWrite, namedStatements, Statement } from './named-statement';
// The repositories' statements are named as their modules load: a copied name would fail here.
import './sql-api-key.repository';
import './sql-pet.repository';

describe('Statement.named', () => {
  it('refuses a name already given to another statement, naming the fix', () => {
    Statement.named('test_statement', 'SELECT 1');
    expect(() => Statement.named('test_statement', 'SELECT 2')).toThrow(
      'The statement name "test_statement" is given to two different statements: give each a name of its own',
    );
  });

  it('takes the same statement twice under its name', () => {
    expect(Statement.named('test_same', 'SELECT 3')).toBe(Statement.named('test_same', 'SELECT 3'));
  });

  it('is the only way to make one: a literal of the same shape is no Statement', () => {
    // @ts-expect-error -- npm test type-checks: a literal would bypass the name check and the reading of mayWrite.
    const literal: Statement = { name: 'test_literal', text: 'UPDATE pets SET name = $1', mayWrite: false, prepare: true };
    expect(literal).not.toBeInstanceOf(Statement);
  });

  it('refuses a copied name of a repository', () => {
    expect(() => Statement.named('pets_find_by_id', 'SELECT 1')).toThrow('give each a name of its own');
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
    const reads = [...namedStatements()].filter(({ name, mayWrite }) => !name.startsWith('test_') && !mayWrite);
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
