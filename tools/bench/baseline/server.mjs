// The benchmark's ceiling: the petstore's three routes on raw Fastify 5 + pg, with the same
// SQL, the same validation rules and schema-driven serialization, and nothing else (no Nest,
// no logging, no request ids). Env: PORT, DATABASE_URL, API_KEY.
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const { PORT = '3100', DATABASE_URL, API_KEY } = process.env;
if (!DATABASE_URL || !API_KEY) {
  console.error('baseline: DATABASE_URL and API_KEY are required');
  process.exit(1);
}

// int8 columns as BigInt, so ids stay exact over the whole int64 range.
pg.types.setTypeParser(20, BigInt);
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10, application_name: 'petstore-baseline' });

const INT64_MAX = 2n ** 63n - 1n;
const COLUMNS = `id, name, category_id AS "categoryId", status`;
// Named statements: each pooled connection parses and plans them once, as the service does.
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
  // The service's idempotent create (SqlPetRepository), statement for statement.
  insertOnce: {
    name: 'insert_once',
    text: `
      WITH claim AS (
        SELECT pg_try_advisory_xact_lock(hashtextextended($1::text || ' ' || $2::text, 0)) AS free
      ), allocated AS (
        SELECT nextval('pets_id_seq') AS id FROM claim WHERE free
      ), record AS (
        INSERT INTO idempotency_records AS r (api_key_id, idempotency_key, request_sha256, pet_id, response_body, expires_at)
        SELECT $1, $2, $3, id, jsonb_build_object('id', id, 'name', $5::text, 'categoryId', $6::bigint, 'status', $7::text),
               now() + $4::integer * interval '1 second'
        FROM allocated
        ON CONFLICT (api_key_id, idempotency_key) DO UPDATE
          SET request_sha256 = excluded.request_sha256, pet_id = excluded.pet_id, response_body = excluded.response_body,
              created_at = excluded.created_at, expires_at = excluded.expires_at
          WHERE r.expires_at <= now()
        RETURNING pet_id
      ), pet AS (
        INSERT INTO pets (id, name, category_id, status) OVERRIDING SYSTEM VALUE
        SELECT pet_id, $5::text, $6::bigint, $7::text FROM record
        RETURNING ${COLUMNS}
      )
      SELECT claim.free, pet.* FROM claim LEFT JOIN pet ON true`,
  },
};
/** A day, the service's default lifetime of an idempotency record. */
const IDEMPOTENCY_LIFETIME_SECONDS = 86400;

const STATUSES = ['available', 'pending', 'sold'];
const PET = {
  type: 'object',
  required: ['id', 'name', 'categoryId', 'status'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: { type: 'string' },
  },
};
const ERROR = {
  type: 'object',
  properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
};
// The service's getPet answers carry these on every response (RFC 9745 / RFC 8594).
const DEPRECATION_HEADERS = {
  deprecation: '@1922659200',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '</v1/pets>; rel="successor-version"',
};

const app = Fastify({ logger: false });

// Fastify's JSON parser, plus the raw body of a request with an Idempotency-Key (its fingerprint), as the service keeps it.
app.removeContentTypeParser('application/json');
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
  if (request.headers['idempotency-key'] !== undefined) request.rawBody = body;
  try {
    done(null, JSON.parse(body));
  } catch (error) {
    error.statusCode = 400;
    done(error, undefined);
  }
});

app.addHook('onRequest', async (request, reply) => {
  const header = request.headers.authorization ?? '';
  // A plain comparison: the ceiling should not pay for the service's constant-time digest check.
  if (!header.startsWith('Bearer ') || header.slice(7) !== API_KEY) {
    return reply
      .code(401)
      .header('www-authenticate', 'Bearer realm="petstore"')
      .send({ code: 'UNAUTHORIZED', message: 'Invalid API key', status: 401 });
  }
});

app.get('/v1/pets', {
  schema: {
    querystring: {
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        status: { type: 'string', enum: STATUSES },
        after: { type: 'string', pattern: '^(0|[1-9][0-9]{0,18})$' },
      },
    },
    response: { 200: { type: 'array', items: PET } },
  },
  handler: async (request, reply) => {
    const { limit, status, after } = request.query;
    const query =
      after === undefined
        ? status
          ? { ...SQL.listByStatus, values: [status, limit] }
          : { ...SQL.list, values: [limit] }
        : status
          ? { ...SQL.listAfterByStatus, values: [after, status, limit] }
          : { ...SQL.listAfter, values: [after, limit] };
    const { rows } = await pool.query(query);
    // The service links a full page to the next one (RFC 8288): the same work here, to be fair.
    if (rows.length === limit) {
      reply.header('link', `</v1/pets?limit=${limit}${status ? `&status=${status}` : ''}&after=${rows[limit - 1].id}>; rel="next"`);
    }
    return rows;
  },
});

app.get('/v1/pets/:petId', {
  schema: {
    params: { type: 'object', properties: { petId: { type: 'string', pattern: '^[1-9][0-9]{0,18}$' } } },
    response: { 200: PET, '4xx': ERROR },
  },
  handler: async (request, reply) => {
    reply.headers(DEPRECATION_HEADERS);
    const { petId } = request.params;
    // The pattern allows 19 digits; the int64 range is the last check.
    if (BigInt(petId) > INT64_MAX) return reply.code(400).send({ code: 'VALIDATION_FAILED', message: 'petId out of range', status: 400 });
    const [pet] = (await pool.query({ ...SQL.findById, values: [petId] })).rows;
    return pet ?? reply.code(404).send({ code: 'PET_NOT_FOUND', message: `Pet ${petId} not found`, status: 404 });
  },
});

app.post('/v1/pets', {
  schema: {
    body: {
      type: 'object',
      required: ['name', 'categoryId'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 255 },
        categoryId: { type: 'integer' },
        status: { type: 'string', enum: STATUSES },
      },
    },
    response: { 201: PET },
  },
  handler: async (request, reply) => {
    const { name, categoryId, status = 'available' } = request.body;
    const key = request.headers['idempotency-key'];
    if (key !== undefined) return createOnce(reply, key, request.rawBody, [name, String(categoryId), status]);
    const [pet] = (await pool.query({ ...SQL.insert, values: [name, String(categoryId), status] })).rows;
    return reply.code(201).header('location', `/v1/pets/${pet.id}`).send(pet);
  },
});

/**
 * A create with an Idempotency-Key, as the service makes it: the same statement, the SHA-256 of the
 * raw body. The bench sends a new key every time, so a key already used (a replay) is only answered 409.
 */
async function createOnce(reply, key, rawBody, [name, categoryId, status]) {
  const fingerprint = createHash('sha256').update(rawBody).digest();
  const values = ['bench', key.replace(/^"(.*)"$/, '$1'), fingerprint, IDEMPOTENCY_LIFETIME_SECONDS, name, categoryId, status];
  const [row] = (await pool.query({ ...SQL.insertOnce, values })).rows;
  if (!row.id)
    return reply.code(409).header('retry-after', '1').send({ code: 'IDEMPOTENCY_KEY_IN_PROGRESS', message: 'Retry', status: 409 });
  return reply.code(201).header('location', `/v1/pets/${row.id}`).send(row);
}

async function shutdown() {
  await app.close();
  await pool.end();
  process.exit(0);
}
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);

await app.listen({ port: Number(PORT), host: '127.0.0.1' });
