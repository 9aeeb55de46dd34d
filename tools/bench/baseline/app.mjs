// What both baselines share: the petstore's three routes on raw Fastify 5 + pg, with the same
// validation rules and schema-driven serialization, the service's Link to the next page, its
// Location and getPet's deprecation headers, and a graceful stop. Each baseline brings its own
// SQL (`queries`) and its own onRequest hook: server.mjs (bare) and parity-server.mjs (parity).
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

const INT64_MAX = 2n ** 63n - 1n;
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

function listRoute(pool, queries) {
  return {
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

function createRoute(pool, queries) {
  return {
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
      const [pet] = (await pool.query(queries.insert(name, categoryId, status))).rows;
      return reply.code(201).header('location', `/v1/pets/${pet.id}`).send(pet);
    },
  };
}

/**
 * The three routes behind one onRequest hook (the key check, and whatever else the baseline
 * adds to every answer). `queries` builds pg query configs: list(limit, status, after),
 * findById(id), insert(name, categoryId, status).
 */
export function createBaseline({ pool, queries, deprecationHeaders, onRequest, fastifyOptions = {} }) {
  const app = Fastify({ logger: false, ...fastifyOptions });
  app.addHook('onRequest', onRequest);
  app.get('/v1/pets', listRoute(pool, queries));
  app.get('/v1/pets/:petId', getRoute(pool, queries, deprecationHeaders));
  app.post('/v1/pets', createRoute(pool, queries));
  return app;
}

/** Listens on 127.0.0.1 until SIGTERM or SIGINT, then closes the server and the pool. */
export async function serve(app, pool, port) {
  const shutdown = async () => {
    await app.close();
    await pool.end();
    process.exit(0);
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  await app.listen({ port, host: '127.0.0.1' });
}
