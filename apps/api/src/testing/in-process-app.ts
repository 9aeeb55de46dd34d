import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { loadConfig } from '@petstore/config';
import { createTestDatabase } from '@petstore/persistence/testing';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../create-app';

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
  /** Closes the app and drops its database. */
  close(): Promise<void>;
}

/**
 * The service as main.ts builds it (createApp), not listening, on a database of its own: in-memory
 * PGlite, or a throw-away PostgreSQL database when TEST_DATABASE_URL is set. `env` adds to the
 * configuration (e.g. RATE_LIMIT_PER_MINUTE). One per test file: tests tell their data apart.
 */
export async function startInProcessApp(env: Readonly<Record<string, string>> = {}): Promise<InProcessApp> {
  const config = loadConfig({ API_KEYS: TEST_API_KEY, ...env });
  const database = await createTestDatabase();
  try {
    const { app, document } = await createApp(config, { database: database.location, logLevel: 'silent' });
    const fastify = app.getHttpAdapter().getInstance();
    await fastify.ready();
    return {
      app,
      fastify,
      document,
      close: async () => {
        await app.close();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}
