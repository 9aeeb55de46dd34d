import type { MigrationInterface, QueryRunner } from 'typeorm';
import { MIGRATIONS } from './migrations';

// No migration takes a long lock on a table the running release serves (docs/operations.md,
// "Changing the schema"). squawk, the kept linter for this, installs its binary from GitHub at
// `npm install`, which this project's machines cannot reach: these are its rules that matter here,
// read from the SQL each migration's `up` sends. A table the migration itself creates is exempt:
// no release uses it yet.

interface Refusal {
  readonly statement: string;
  readonly fix: string;
}

/** Each rule: what locks or rewrites a busy table, and the step to take instead. */
const RULES: ReadonlyArray<{ readonly matches: RegExp; readonly unless?: RegExp; readonly fix: string }> = [
  {
    matches: /^CREATE\s+(UNIQUE\s+)?INDEX\b/i,
    unless: /\bCONCURRENTLY\b/i,
    fix: 'an index built in place blocks every write to the table: CREATE INDEX CONCURRENTLY, in a migration with `transaction = false`',
  },
  {
    matches: /\bALTER\s+COLUMN\s+\S+\s+(SET\s+DATA\s+)?TYPE\b/i,
    fix: "changing a column's type rewrites the table under an exclusive lock, and breaks the running release: add a column of the new type, backfill it, switch to it, and drop the old one in a later release",
  },
  {
    matches: /\bADD\s+(CONSTRAINT\s+\S+\s+)?(CHECK|FOREIGN\s+KEY)\b/i,
    unless: /\bNOT\s+VALID\b/i,
    fix: 'a constraint validated in place scans the table under a lock: add it NOT VALID, then VALIDATE CONSTRAINT in a statement of its own',
  },
  {
    matches: /\bALTER\s+COLUMN\s+\S+\s+SET\s+NOT\s+NULL\b/i,
    fix: 'SET NOT NULL scans the table under an exclusive lock: add CHECK (column IS NOT NULL) NOT VALID, validate it, then SET NOT NULL',
  },
  {
    matches: /\bADD\s+(COLUMN\s+)?(?!CONSTRAINT\b|CHECK\b|PRIMARY\b|UNIQUE\b|FOREIGN\b)\S+\s+[^,]*\bNOT\s+NULL\b/i,
    unless: /\bDEFAULT\b/i,
    fix: "a NOT NULL column without a default fails on a table with rows, and the running release's inserts fail: add it nullable (or with a default), backfill, then make it required in a later release",
  },
  {
    matches: /\b(RENAME\s+(COLUMN\s+)?\S+\s+TO|DROP\s+COLUMN|DROP\s+TABLE|RENAME\s+TO)\b/i,
    fix: 'the running release still reads the old name: add the new one, move the code to it, and drop or rename the old one in a later release (expand, then contract)',
  },
];

/** The statements `up` sends, as a QueryRunner that only listens. */
async function statementsOf(migration: MigrationInterface): Promise<string[]> {
  const sent: string[] = [];
  const runner = { query: (sql: string) => Promise.resolve(void sent.push(sql.trim().replace(/\s+/g, ' '))) };
  await migration.up(runner as unknown as QueryRunner);
  return sent;
}

/** What in a migration's statements locks or rewrites a table it did not create, each with its fix. */
async function longLocksOf(migration: MigrationInterface): Promise<Refusal[]> {
  const created = new Set<string>();
  const refusals: Refusal[] = [];
  for (const statement of await statementsOf(migration)) {
    const table = /^CREATE\s+TABLE\s+(IF\s+NOT\s+EXISTS\s+)?"?(\w+)"?/i.exec(statement)?.[2];
    if (table) {
      created.add(table);
      continue;
    }
    const target = /\b(?:ON|ALTER\s+TABLE(?:\s+ONLY)?|DROP\s+TABLE(?:\s+IF\s+EXISTS)?)\s+"?(\w+)"?/i.exec(statement)?.[1];
    if (target && created.has(target)) continue;
    for (const { matches, unless, fix } of RULES)
      if (matches.test(statement) && !unless?.test(statement)) refusals.push({ statement, fix });
    if (/\bCONCURRENTLY\b/i.test(statement) && migration.transaction !== false) {
      refusals.push({ statement, fix: 'CONCURRENTLY cannot run in a transaction: set `transaction = false` on the migration' });
    }
  }
  return refusals;
}

describe('the migrations take no long lock on a table the running release serves', () => {
  it.each(MIGRATIONS.map((Migration) => [Migration.name, Migration] as const))('%s', async (_name, Migration) => {
    expect(await longLocksOf(new Migration())).toEqual([]);
  });
});

describe('the lock rules', () => {
  const migration = (statements: string[], transaction?: boolean): MigrationInterface => ({
    transaction,
    up: async (runner: QueryRunner) => {
      for (const statement of statements) await runner.query(statement);
    },
    down: () => Promise.resolve(),
  });
  const fixesFor = async (statements: string[], transaction?: boolean) =>
    (await longLocksOf(migration(statements, transaction))).map(({ fix }) => fix.split(':')[0]);

  it.each([
    ['CREATE INDEX pets_name_idx ON pets (name)', 'an index built in place blocks every write to the table'],
    [
      'ALTER TABLE pets ALTER COLUMN name TYPE text',
      "changing a column's type rewrites the table under an exclusive lock, and breaks the running release",
    ],
    [
      'ALTER TABLE pets ADD CONSTRAINT pets_name_short CHECK (char_length(name) < 99)',
      'a constraint validated in place scans the table under a lock',
    ],
    ['ALTER TABLE pets ALTER COLUMN category_id SET NOT NULL', 'SET NOT NULL scans the table under an exclusive lock'],
    [
      'ALTER TABLE pets ADD COLUMN colour varchar(16) NOT NULL',
      "a NOT NULL column without a default fails on a table with rows, and the running release's inserts fail",
    ],
    ['ALTER TABLE pets RENAME COLUMN name TO title', 'the running release still reads the old name'],
    ['ALTER TABLE pets DROP COLUMN status', 'the running release still reads the old name'],
  ])('refuses %s on a table in use, naming the step to take instead', async (statement, fix) => {
    expect(await fixesFor([statement])).toEqual([fix]);
  });

  it.each([
    ['an index built concurrently, outside a transaction', ['CREATE INDEX CONCURRENTLY pets_name_idx ON pets (name)'], false],
    ['a nullable column', ['ALTER TABLE pets ADD COLUMN colour varchar(16)'], undefined],
    ['a required column with a default', ["ALTER TABLE pets ADD COLUMN colour varchar(16) NOT NULL DEFAULT 'brown'"], undefined],
    ['a constraint added NOT VALID', ['ALTER TABLE pets ADD CONSTRAINT c CHECK (colour IS NOT NULL) NOT VALID'], undefined],
    [
      'anything on a table the migration creates',
      ['CREATE TABLE toys (id bigint NOT NULL)', 'CREATE INDEX toys_id_idx ON toys (id)'],
      undefined,
    ],
  ])('takes %s', async (_case, statements, transaction) => {
    expect(await fixesFor(statements, transaction)).toEqual([]);
  });

  it('refuses CONCURRENTLY in a migration that runs in a transaction', async () => {
    expect(await fixesFor(['CREATE INDEX CONCURRENTLY pets_name_idx ON pets (name)'])).toEqual([
      'CONCURRENTLY cannot run in a transaction',
    ]);
  });
});
