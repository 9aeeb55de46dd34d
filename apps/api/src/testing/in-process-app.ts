import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { loadConfig } from '@petstore/config';
import { Database, Statement } from '@petstore/persistence';
import { createTestDatabase } from '@petstore/persistence/testing';
import type { FastifyInstance } from 'fastify';
import { createApp, type CreateAppOptions } from '../create-app';
import { closeAtFileEnd } from './left-open';
import { recordUndocumentedFields } from './undocumented-fields';

/** The key the in-process app accepts. */
export const TEST_API_KEY = 'in-process-test-key-0123456789';
export const AUTH = { authorization: `Bearer ${TEST_API_KEY}` } as const;

export interface InProcessApp {
  /** The Nest application, for `get` (e.g. a repository to make fail). */
  readonly app: NestFastifyApplication;
  /** The real application's Fastify instance, for `inject`. */
  readonly fastify: FastifyInstance;
  /** The document the app was built from (the live one, not the committed file). */
  readonly document: OpenAPIObject;
  /** The app's PostgreSQL database (TEST_DATABASE_URL set), for a connection of the test's own; undefined on PGlite. */
  readonly databaseUrl: string | undefined;
  /** The log lines the app has written so far, parsed (with `logs: true`; else none). */
  logLines(): readonly Record<string, unknown>[];
  /** Runs one SQL statement on the app's own database (PGlite or PostgreSQL) and returns its rows. */
  sql<Row>(text: string, values?: unknown[]): Promise<Row[]>;
  /**
   * Listens on a free port of 127.0.0.1 (once; later calls return the same) and returns the base
   * URL, for what needs a real socket: raw bytes, a client of its own, a validating proxy.
   */
  listen(): Promise<string>;
  /** Closes the app (and its socket, if it listens) and drops its database. */
  close(): Promise<void>;
}

/**
 * The service as main.ts builds it (createApp), not listening, on a database of its own: embedded
 * PGlite in memory (loaded from the build's template, see createTestDatabase), or a throw-away PostgreSQL
 * database when TEST_DATABASE_URL is set. `env` adds to the configuration (e.g.
 * RATE_LIMIT_PER_MINUTE); `imports`, modules of the test's own beside the service's. Started in a
 * file's beforeAll and shared by its tests, which tell their data apart; a file may start several,
 * each with its database and metrics of its own (own-app/two-apps.spec.ts). With `logs`, the app logs at
 * `info` into memory, for `logLines`; else it logs nothing.
 */
export function startInProcessApp(
  env: Readonly<Record<string, string>> = {},
  options: { logs?: boolean; imports?: CreateAppOptions['imports'] } = {},
): Promise<InProcessApp> {
  const starting = start(env, options.logs ?? false, options.imports);
  closeAtFileEnd(starting);
  return starting;
}

/** Two more clients' keys the shared app accepts, after TEST_API_KEY (which stays the first: its principal is env-1). */
export const CLIENT_ONE = 'client-one-key-0123456789';
export const CLIENT_TWO = 'client-two-key-0123456789';

/**
 * The shared app's settings: the defaults, but for what its suites show. Not the defaults, so that
 * what follows them shows: the request time-out (the duration buckets end there) and the commit
 * (in the build info); and two more clients, each with its own Idempotency-Keys.
 */
export const SHARED_APP_ENV = {
  API_KEYS: [TEST_API_KEY, CLIENT_ONE, CLIENT_TWO].join(','),
  HTTP_REQUEST_TIMEOUT_MS: '12000',
  GIT_COMMIT: '0123456789abcdef0123456789abcdef01234567',
} as const;

/** This test file's shared app (see sharedApp). */
let shared: Promise<InProcessApp> | undefined;

/**
 * The app of SHARED_APP_ENV, started by the first suite of the test file that asks and shared by
 * the rest (apps/api/src/shared-app.spec.ts runs the suites of shared-app/ on one), closed when the
 * file ends: suites that share it do not close it. Jest gives each test file a module registry of
 * its own, so a file never sees another file's app.
 */
export function sharedApp(): Promise<InProcessApp> {
  return (shared ??= startInProcessApp(SHARED_APP_ENV));
}

async function start(env: Readonly<Record<string, string>>, logs: boolean, imports: CreateAppOptions['imports']): Promise<InProcessApp> {
  const config = loadConfig({ API_KEYS: TEST_API_KEY, ...env });
  const database = await createTestDatabase();
  const lines: Record<string, unknown>[] = [];
  const logDestination = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
  try {
    const { app, document } = await createApp(config, {
      database: database.location,
      imports,
      ...(logs ? { logLevel: 'info', logDestination } : { logLevel: 'silent' }),
    });
    const fastify = app.getHttpAdapter().getInstance();
    recordUndocumentedFields(fastify);
    await fastify.ready();
    let listening: Promise<string> | undefined;
    let closing: Promise<void> | undefined;
    return {
      app,
      fastify,
      document,
      databaseUrl: 'url' in database.location ? database.location.url : undefined,
      logLines: () => lines,
      // Never prepared: each text is another statement. Not a named statement's, so in no metric; taken for a write.
      sql: (text, values = []) => app.get(Database).query(Statement.adHoc(text), values),
      listen: () =>
        (listening ??= app.listen({ port: 0, host: '127.0.0.1' }).then(() => {
          const address = app.getHttpServer().address();
          if (!address || typeof address === 'string') throw new Error(`Not listening on a TCP port: ${String(address)}`);
          return `http://127.0.0.1:${address.port}`;
        })),
      close: () =>
        (closing ??= (async () => {
          try {
            await app.close();
          } finally {
            await database.drop();
          }
        })()),
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}
