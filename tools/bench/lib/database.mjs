// The bench's throw-away PostgreSQL database: create, seed, grow, explain, drop.
import pg from 'pg';

const COLUMNS = `id, name, category_id AS "categoryId", status`;

async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** `base` with another database name. */
export function databaseUrl(base, name) {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function createDatabase(adminUrl, name) {
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
}

/** FORCE: a server we failed to stop must not keep the database alive. */
export async function dropDatabase(adminUrl, name) {
  await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/**
 * Brings `pets` to exactly ids 1..size: drops rows a previous `create` case added beyond
 * `from` (and the idempotency records of `create-keyed`, which name them), then inserts ids from+1..size with the seed statement (same session as setseed, so
 * the data is the same on every run), then VACUUM ANALYZE.
 */
export async function growTo(url, from, size) {
  await withClient(url, async (client) => {
    await client.query('DELETE FROM idempotency_records WHERE pet_id > $1', [from]);
    await client.query('DELETE FROM pets WHERE id > $1', [from]);
    // Identity values are not reused by DELETE; ids must stay 1..size for the `get` case.
    await client.query(`ALTER TABLE pets ALTER COLUMN id RESTART WITH ${from + 1}`);
    await client.query('SELECT setseed(0.42)');
    await client.query(
      `INSERT INTO pets (name, category_id, status)
       SELECT 'pet-' || g, 1 + (g % 1000),
              CASE WHEN r < 0.80 THEN 'available' WHEN r < 0.95 THEN 'sold' ELSE 'pending' END
       FROM (SELECT g, random() AS r FROM generate_series($1::int, $2::int) g) s`,
      [from + 1, size],
    );
    await client.query('VACUUM ANALYZE pets');
  });
}

// The two list queries as the brief's ceiling writes them, and as the service sends them
// (the service always adds "id > $after", with after = 0 for the first page).
const PLANS = [
  { name: 'list20, literal', sql: `SELECT ${COLUMNS} FROM pets ORDER BY id LIMIT 20` },
  { name: 'list20-pending, literal', sql: `SELECT ${COLUMNS} FROM pets WHERE status = 'pending' ORDER BY id LIMIT 20` },
  { name: 'list20, generic', prepare: `q1(int) AS SELECT ${COLUMNS} FROM pets ORDER BY id LIMIT $1`, execute: 'q1(20)' },
  {
    name: 'list20-pending, generic',
    prepare: `q2(text, int) AS SELECT ${COLUMNS} FROM pets WHERE status = $1 ORDER BY id LIMIT $2`,
    execute: `q2('pending', 20)`,
  },
  {
    name: 'service list20, generic',
    prepare: `s1(bigint, bigint) AS SELECT ${COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2`,
    execute: 's1(0, 20)',
  },
  {
    name: 'service list20-pending, generic',
    prepare: `s2(text, bigint, bigint) AS SELECT ${COLUMNS} FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`,
    execute: `s2('pending', 0, 20)`,
  },
];

/** EXPLAIN (ANALYZE, BUFFERS) of the list queries; generic plans forced as a prepared statement would get them. */
export async function explainLists(url) {
  return withClient(url, async (client) => {
    await client.query('SET plan_cache_mode = force_generic_plan');
    const explained = [];
    for (const plan of PLANS) {
      if (plan.prepare) await client.query(`PREPARE ${plan.prepare}`);
      const target = plan.prepare ? `EXECUTE ${plan.execute}` : plan.sql;
      const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${target}`);
      explained.push({
        name: plan.name,
        sql: plan.prepare ? `PREPARE ${plan.prepare}; EXECUTE ${plan.execute}` : plan.sql,
        plan: rows.map((row) => row['QUERY PLAN']).join('\n'),
      });
    }
    return explained;
  });
}
