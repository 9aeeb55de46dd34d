// The parity baseline: the bare baseline's routes (app.mjs) plus, written by hand on raw Fastify
// as cheaply as we know how, what the service does on every answer, so that service/parity is
// the cost of the framework (Nest, passport, pino, the service's hooks) and not of the features:
//   - the service's SQL statements (keyset `after` on every page, first page "after 0", the
//     status filter planned per call), hence the same `Link` to the next page;
//   - the API security headers, `X-Request-Id` (the caller's when it is a plain token);
//   - the same key check (SHA-256 digest, constant-time compare: the service's BootstrapKeys);
//   - a per-key fixed-window limit with the `RateLimit-Policy` and `RateLimit` headers;
//   - getPet's deprecation headers, and createPet with an Idempotency-Key: the service's statement
//     and values, scoped to the key's id, the raw body's SHA-256 (app.mjs, as the bare baseline);
//   - conditional GET on getPet and listPets: the ETag of the 200's bytes, its Cache-Control, and
//     304 to an If-None-Match that names it (the service's own entity-tag module).
// Values come from the built service (SERVICE_FACTS, and the two small pure modules below), not
// from hand copies; the per-answer formats written here (the RateLimit field, the Link) are held
// to the service's by run.mjs, which compares both servers' answers before measuring each case.
// Not mirrored (outside the list): the exact int64 JSON body parser and class-validator
// of createPet, request metrics, the access log, protocol guards, counting failed authentications,
// and the replay of a key already used (the bench sends a new key per request; answered 409 here).
import { createRequire } from 'node:module';
import { baselineEnv, conditionalGet, createBaseline, createPool, serve } from './app.mjs';

const require = createRequire(import.meta.url);
// Small modules with no framework behind them: loading them costs the process nothing.
const { BootstrapKeys } = require('../../../dist/libs/auth/src/lib/bearer.strategy.js');
const { requestIdFor } = require('../../../dist/libs/http/src/lib/http-setup.js');

const { port, databaseUrl, apiKey, facts } = baselineEnv('parity');
const pool = createPool(databaseUrl, 'petstore-parity');

const STATEMENTS = facts.statements;
const queries = {
  list: (limit, status, after = STATEMENTS.firstPage) =>
    status ? { ...STATEMENTS.listByStatus, values: [status, after, limit] } : { ...STATEMENTS.list, values: [after, limit] },
  findById: (id) => ({ ...STATEMENTS.findById, values: [id] }),
  insert: (name, categoryId, status) => ({ ...STATEMENTS.insert, values: [name, String(categoryId), status] }),
};

/**
 * The service's in-memory count: one fixed window per key. Only keys that passed the check are
 * counted, so the Map holds one entry per valid key and needs no bound.
 */
function fixedWindows({ limit, windowSeconds }) {
  const windows = new Map();
  const windowMs = windowSeconds * 1000;
  return (keyId, now) => {
    let window = windows.get(keyId);
    if (!window || window.resetsAt <= now) {
      window = { count: 0, resetsAt: now + windowMs };
      windows.set(keyId, window);
    }
    window.count += 1;
    const resetSeconds = Math.ceil((window.resetsAt - now) / 1000);
    return { remaining: Math.max(limit - window.count, 0), resetSeconds, exceeded: window.count > limit };
  };
}

const BEARER_SCHEME = /^Bearer$/i;
const UNAUTHORIZED = { code: 'UNAUTHORIZED', message: 'Invalid API key', status: 401 };
const keys = new BootstrapKeys([apiKey]);
const countRequest = fixedWindows(facts.rateLimit);
const { securityHeaders, rateLimit } = facts;
const RATE_LIMIT_PREFIX = `"${rateLimit.policy}";r=`;

/** The token as passport-http-bearer takes it: exactly "<scheme> <token>", the scheme in any case. */
function bearerToken(header) {
  const parts = header.split(' ');
  return parts.length === 2 && BEARER_SCHEME.test(parts[0]) ? parts[1] : undefined;
}

/** Every answer's headers, then the key check and the count, in one callback hook (no promise). */
function admit(request, reply, done) {
  reply.headers(securityHeaders);
  reply.header('x-request-id', request.id);
  const token = bearerToken(request.headers.authorization ?? '');
  const principal = token === undefined ? undefined : keys.verify(token);
  if (!principal) {
    reply.code(401).header('www-authenticate', 'Bearer realm="petstore"').send(UNAUTHORIZED);
    return;
  }
  request.keyId = principal.keyId;
  const quota = countRequest(principal.keyId, Date.now());
  reply.header('ratelimit-policy', rateLimit.policyHeader);
  reply.header('ratelimit', `${RATE_LIMIT_PREFIX}${quota.remaining};t=${quota.resetSeconds}`);
  if (quota.exceeded) {
    const message = `Rate limit exceeded; retry in ${quota.resetSeconds} s`;
    reply
      .code(429)
      .header('retry-after', String(Math.max(quota.resetSeconds, 1)))
      .send({ code: 'RATE_LIMITED', message, status: 429 });
    return;
  }
  done();
}

// The service's request ids: the caller's X-Request-Id when it is a plain token, else a UUID.
const fastifyOptions = { genReqId: requestIdFor, requestIdHeader: false };
const app = createBaseline({ pool, queries, facts, onRequest: admit, onGetSend: conditionalGet, fastifyOptions });
await serve(app, pool, port);
