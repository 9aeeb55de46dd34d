// What both baselines share: the petstore's three routes on raw Fastify 5 + pg, with the same
// validation rules and schema-driven serialization, the service's Link to the next page, its
// Location and getPet's deprecation headers, createPet with an Idempotency-Key (the service's own
// statement, fingerprinting the raw body as the service does), and a graceful stop. Each baseline
// brings its own SQL (`queries`) and its own onRequest hook: server.mjs (bare) and
// parity-server.mjs (parity).
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import pg from 'pg';

/**
 * PORT, DATABASE_URL, API_KEY, and SERVICE_FACTS: what the service answers with (JSON, worked
 * out by lib/service-facts.mjs from the built service), so that no value is copied by hand.
 */
export function baselineEnv(name) {
  const { PORT = '3100', DATABASE_URL, API_KEY, SERVICE_FACTS } = process.env;
  if (!DATABASE_URL || !API_KEY || !SERVICE_FACTS) {
    console.error(`${name}: DATABASE_URL, API_KEY and SERVICE_FACTS are required`);
    process.exit(1);
  }
  return { port: Number(PORT), databaseUrl: DATABASE_URL, apiKey: API_KEY, facts: JSON.parse(SERVICE_FACTS) };
}

/** The pool of the service's size, with int8 columns as BigInt so that ids stay exact over the whole int64 range. */
export function createPool(databaseUrl, applicationName) {
  pg.types.setTypeParser(20, BigInt);
  return new pg.Pool({ connectionString: databaseUrl, max: 10, application_name: applicationName });
}

// The service's own entity-tag module (framework-free): the baselines tag and compare as it does.
const { entityTagOf, ifNoneMatchNames, REVALIDATE_EACH_USE } = createRequire(import.meta.url)(
  '../../../dist/libs/http/src/lib/entity-tag.js',
);

/** The GET routes' onSend (the parity baseline's, and the Nest floor's on every route: only a 200 is tagged): the 200's ETag and Cache-Control, and 304 (no body) to an If-None-Match that names it. */
export function conditionalGet(request, reply, payload, done) {
  if (reply.statusCode !== 200) {
    done(null, payload);
    return;
  }
  const etag = entityTagOf(payload);
  reply.header('etag', etag).header('cache-control', REVALIDATE_EACH_USE);
  if (!ifNoneMatchNames(request.headers['if-none-match'], etag)) {
    done(null, payload);
    return;
  }
  reply.code(304).removeHeader('content-type');
  done(null, null);
}

const INT64_MAX = 2n ** 63n - 1n;
const STATUSES = ['available', 'pending', 'sold'];
// The schemas the Nest floor (nest-floor-server.mjs) shares: a pet, listPets' query, createPet's body.
export const PET = {
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

export const LIST_QUERY = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    status: { type: 'string', enum: STATUSES },
    after: { type: 'string', pattern: '^(0|[1-9][0-9]{0,18})$' },
  },
};
export const CREATE_BODY = {
  type: 'object',
  required: ['name', 'categoryId'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255 },
    categoryId: { type: 'integer' },
    status: { type: 'string', enum: STATUSES },
  },
};

function listRoute(pool, queries) {
  return {
    schema: {
      querystring: LIST_QUERY,
      response: { 200: { type: 'array', items: PET } },
    },
    handler: async (request, reply) => {
      const { limit, status, after } = request.query;
      const { rows } = await pool.query(queries.list(limit, status, after));
      // The service links a full page to the next one (RFC 8288): the same work here, to be fair.
      if (rows.length === limit) {
        reply.header('link', `</v1/pets?limit=${limit}${status ? `&status=${status}` : ''}&after=${rows[limit - 1].id}>; rel="next"`);
      }
      return rows;
    },
  };
}

function getRoute(pool, queries, deprecationHeaders) {
  return {
    schema: {
      params: { type: 'object', properties: { petId: { type: 'string', pattern: '^[1-9][0-9]{0,18}$' } } },
      response: { 200: PET, '4xx': ERROR },
    },
    handler: async (request, reply) => {
      reply.headers(deprecationHeaders);
      const { petId } = request.params;
      // The pattern allows 19 digits; the int64 range is the last check.
      if (BigInt(petId) > INT64_MAX) return reply.code(400).send({ code: 'VALIDATION_FAILED', message: 'petId out of range', status: 400 });
      const [pet] = (await pool.query(queries.findById(petId))).rows;
      return pet ?? reply.code(404).send({ code: 'PET_NOT_FOUND', message: `Pet ${petId} not found`, status: 404 });
    },
  };
}

/** A structured-field string (RFC 8941 section 3.3.3), as the service reads an Idempotency-Key. */
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/** The key an Idempotency-Key names (quoted or bare), or undefined when it is malformed: the service's rules. */
function idempotencyKeyOf(value, maxLength) {
  const quoted = SF_STRING.exec(value);
  const key = quoted ? quoted[1].replace(/\\(["\\])/g, '$1') : value.startsWith('"') ? undefined : value;
  return key !== undefined && key.length <= maxLength && VISIBLE_ASCII.test(key) ? key : undefined;
}

/**
 * Fastify's JSON parser, plus the raw body of a request with an Idempotency-Key (its fingerprint),
 * kept as the service keeps it: other requests keep nothing.
 */
function parseJsonKeepingRawBody(request, body, done) {
  if (request.headers['idempotency-key'] !== undefined) request.rawBody = body;
  try {
    done(null, JSON.parse(body));
  } catch (error) {
    error.statusCode = 400;
    done(error, undefined);
  }
}

/**
 * A create with an Idempotency-Key, as the service makes it: its statement (SERVICE_FACTS), its
 * values, the SHA-256 of the raw body. The bench sends a new key every time; a key already used
 * (which the service would replay, or refuse with 422) is only answered 409 here.
 */
async function createOnce(pool, idempotency, request, reply, [name, categoryId, status]) {
  const key = idempotencyKeyOf(request.headers['idempotency-key'], idempotency.keyMaxLength);
  if (key === undefined) return reply.code(400).send({ code: 'VALIDATION_FAILED', message: idempotency.keyMessage, status: 400 });
  const fingerprint = createHash('sha256').update(request.rawBody).digest();
  const values = [request.keyId, key, fingerprint, idempotency.lifetimeSeconds, name, String(categoryId), status];
  const [row] = (await pool.query({ ...idempotency.statement, values })).rows;
  if (!row.free || row.id === null) {
    const retryAfter = idempotency.retryAfterSeconds;
    const message = `A request with this Idempotency-Key is being processed; retry in ${retryAfter} s`;
    return reply.code(409).header('retry-after', String(retryAfter)).send({ code: 'IDEMPOTENCY_KEY_IN_PROGRESS', message, status: 409 });
  }
  // The 201 schema serializes the pet's four properties only: `free` is left out.
  return reply.code(201).header('location', `/v1/pets/${row.id}`).send(row);
}

function createRoute(pool, queries, idempotency) {
  return {
    schema: {
      body: CREATE_BODY,
      response: { 201: PET },
    },
    handler: async (request, reply) => {
      const { name, categoryId, status = 'available' } = request.body;
      if (request.headers['idempotency-key'] !== undefined)
        return createOnce(pool, idempotency, request, reply, [name, categoryId, status]);
      const [pet] = (await pool.query(queries.insert(name, categoryId, status))).rows;
      return reply.code(201).header('location', `/v1/pets/${pet.id}`).send(pet);
    },
  };
}

/**
 * The three routes behind one onRequest hook (the key check, and whatever else the baseline
 * adds to every answer), which sets `request.keyId`: the API key that idempotency records are
 * scoped to. `queries` builds pg query configs: list(limit, status, after), findById(id),
 * insert(name, categoryId, status). `facts` is SERVICE_FACTS. `onGetSend`, if given, is the two
 * GET routes' own onSend hook (the parity baseline's conditional GET).
 */
export function createBaseline({ pool, queries, facts, onRequest, onGetSend, fastifyOptions = {} }) {
  const app = Fastify({ logger: false, ...fastifyOptions });
  app.decorateRequest('keyId', null);
  app.decorateRequest('rawBody', null);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parseJsonKeepingRawBody);
  app.addHook('onRequest', onRequest);
  const idempotency = { ...facts.idempotency, statement: facts.statements.createOnce };
  const getHooks = onGetSend ? { onSend: onGetSend } : {};
  app.get('/v1/pets', { ...listRoute(pool, queries), ...getHooks });
  app.get('/v1/pets/:petId', { ...getRoute(pool, queries, facts.deprecationHeaders), ...getHooks });
  app.post('/v1/pets', createRoute(pool, queries, idempotency));
  return app;
}

/**
 * Listens on 127.0.0.1 until SIGTERM or SIGINT, then closes the server and the pool. `listen` for
 * an app that listens otherwise than Fastify (the Nest floor).
 */
export async function serve(app, pool, port, listen = () => app.listen({ port, host: '127.0.0.1' })) {
  const shutdown = async () => {
    await app.close();
    await pool.end();
    process.exit(0);
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  await listen();
}
