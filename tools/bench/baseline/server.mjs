// The bare baseline, the benchmark's ceiling: the petstore's three routes on raw Fastify 5 + pg
// (app.mjs) with the brief's SQL and a plain key comparison, and nothing else: no security
// headers, request ids or rate limits (parity-server.mjs adds those), no Nest, no logging.
// createPet with an Idempotency-Key sends the service's own statement (app.mjs).
// Env: see baselineEnv in app.mjs.
import { baselineEnv, createBaseline, createPool, serve } from './app.mjs';

const { port, databaseUrl, apiKey, facts } = baselineEnv('baseline');
const pool = createPool(databaseUrl, 'petstore-baseline');

const COLUMNS = `id, name, category_id AS "categoryId", status`;
// Named statements: each pooled connection parses and plans them once. The first page has its
// own statement, without the keyset condition.
const SQL = {
  list: { name: 'list', text: `SELECT ${COLUMNS} FROM pets ORDER BY id LIMIT $1` },
  listByStatus: { name: 'list_by_status', text: `SELECT ${COLUMNS} FROM pets WHERE status = $1 ORDER BY id LIMIT $2` },
  listAfter: { name: 'list_after', text: `SELECT ${COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2` },
  listAfterByStatus: {
    name: 'list_after_by_status',
    text: `SELECT ${COLUMNS} FROM pets WHERE id > $1 AND status = $2 ORDER BY id LIMIT $3`,
  },
  findById: { name: 'find_by_id', text: `SELECT ${COLUMNS} FROM pets WHERE id = $1` },
  insert: {
    name: 'insert',
    text: `INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
  },
};

const queries = {
  list: (limit, status, after) =>
    after === undefined
      ? status
        ? { ...SQL.listByStatus, values: [status, limit] }
        : { ...SQL.list, values: [limit] }
      : status
        ? { ...SQL.listAfterByStatus, values: [after, status, limit] }
        : { ...SQL.listAfter, values: [after, limit] },
  findById: (id) => ({ ...SQL.findById, values: [id] }),
  insert: (name, categoryId, status) => ({ ...SQL.insert, values: [name, String(categoryId), status] }),
};

const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Invalid API key', status: 401 };

/** A plain comparison: the ceiling should not pay for the service's constant-time digest check. */
function plainKeyCheck(request, reply, done) {
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('Bearer ') || header.slice(7) !== apiKey) {
    reply.code(401).header('www-authenticate', 'Bearer realm="petstore"').send(UNAUTHORIZED);
    return;
  }
  // The one key's name, which idempotency records are scoped to.
  request.keyId = 'bench';
  done();
}

const app = createBaseline({ pool, queries, facts, onRequest: plainKeyCheck });
await serve(app, pool, port);
