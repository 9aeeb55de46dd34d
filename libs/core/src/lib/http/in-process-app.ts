import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { ErrorBodyFilter } from './error-body.filter';

/**
 * Readies a Nest application as main.ts serves the API (the /v1 prefix, every error as the
 * Error body) without listening, and returns its Fastify instance for `inject`: the one set-up
 * of the in-process tests.
 */
export async function readyInProcess(app: NestFastifyApplication, prefix = 'v1'): Promise<FastifyInstance> {
  app.setGlobalPrefix(prefix);
  app.useGlobalFilters(new ErrorBodyFilter());
  await app.init();
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  await fastify.ready();
  return fastify;
}
