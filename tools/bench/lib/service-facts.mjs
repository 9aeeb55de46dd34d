// What the baselines must answer like, read from the built service (dist/) so that no value is a
// second, hand-copied definition: the security headers of API answers, getPet's deprecation
// headers, the per-key rate-limit policy, the SQL statements the service sends (its idempotent
// create included) and how it answers an Idempotency-Key. Worked out
// here in the bench's own process and handed to the baselines as JSON (SERVICE_FACTS): the
// modules that hold them load Nest, TypeORM and Swagger, which would add some 90 MiB and a
// second of start-up to a baseline's own figures.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const SAMPLE_ROW = { id: '1', name: 'Rex', categoryId: '1', status: 'available' };

/** The service's facts for a per-key limit of `perKeyPerMinute` (RATE_LIMIT_PER_MINUTE). */
export async function serviceFacts(root, { perKeyPerMinute }) {
  const load = (path) => require(join(root, 'dist', path));
  const { API_HEADERS, RATE_LIMIT_POLICIES, RATE_LIMIT_WINDOW_SECONDS, routePolicyOf } = load('libs/http/src/index.js');
  const { loadConfig } = load('libs/config/src/index.js');
  const { rateLimitHeaders } = load('libs/auth/src/index.js');
  const { IDEMPOTENCY_RETRY_AFTER_SECONDS } = load('libs/pets/src/lib/pets.error-codes.js');
  const { PetsController } = load('libs/pets/src/lib/pets.controller.js');
  const { IDEMPOTENCY_KEY_MESSAGE } = load('libs/pets/src/lib/idempotency-key.header.js');
  const { IDEMPOTENCY_KEY_MAX_LENGTH } = load('libs/domain/src/index.js');
  const { SqlPetRepository } = load('libs/persistence/src/index.js');
  const policy = RATE_LIMIT_POLICIES.perKey;
  const quota = { policy, limit: perKeyPerMinute, remaining: 0, resetSeconds: 0, exceeded: false };
  return {
    securityHeaders: API_HEADERS,
    // getPet's RouteHeaders: every answer of it carries them.
    deprecationHeaders: routePolicyOf(PetsController.prototype.get).responseHeaders,
    rateLimit: {
      policy,
      limit: perKeyPerMinute,
      windowSeconds: RATE_LIMIT_WINDOW_SECONDS,
      policyHeader: rateLimitHeaders(quota)['ratelimit-policy'],
    },
    idempotency: {
      // The service's default (IDEMPOTENCY_KEY_LIFETIME_SECONDS unset), which the bench keeps.
      lifetimeSeconds: loadConfig({}).idempotencyKeyLifetimeSeconds,
      retryAfterSeconds: IDEMPOTENCY_RETRY_AFTER_SECONDS,
      keyMaxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
      keyMessage: IDEMPOTENCY_KEY_MESSAGE,
    },
    statements: await petStatements(SqlPetRepository),
  };
}

/**
 * The statements ({ name?, text }: a name only for a prepared one) the service's repository sends, recorded by a stand-in
 * database, and the `after` it gives the first page. The order of the values is not taken from
 * here: a parity baseline that sent them in another order would answer other pets, which the
 * answer check of run.mjs reports.
 */
async function petStatements(Repository) {
  const sent = [];
  const database = {
    declare: () => undefined,
    query: async ({ name, text, prepare }, values) => {
      sent.push({ statement: prepare === false ? { text } : { name, text }, values });
      // The idempotent create's row says whether the key's claim was free: here it was, and the pet created.
      return [{ free: true, ...SAMPLE_ROW }];
    },
  };
  const pets = new Repository(database);
  await pets.list({ limit: 20 });
  await pets.list({ limit: 20, status: 'pending' });
  await pets.findById(1n);
  await pets.create({ name: 'Rex', categoryId: 1n, status: 'available' });
  const request = { principal: 'bench', key: 'k', fingerprint: new Uint8Array(32) };
  const created = await pets.createOnce(request, { name: 'Rex', categoryId: 1n, status: 'available' }, 60);
  if (created.outcome !== 'created' || sent.length !== 5) {
    throw new Error(
      `service-facts: createOnce sent ${sent.length - 4} statement(s) and answered ${created.outcome}, not one and "created"`,
    );
  }
  const [list, listByStatus, findById, insert, createOnce] = sent;
  return {
    list: list.statement,
    listByStatus: listByStatus.statement,
    findById: findById.statement,
    insert: insert.statement,
    createOnce: createOnce.statement,
    firstPage: list.values[0],
  };
}
