import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { ErrorBodyFilter } from './error-body.filter';
import { JsonBodyValidationPipe } from './json-body-validation.pipe';
import { applyRouteSchemas } from './route-schemas';

/**
 * Readies a Nest application as main.ts serves the API (the /v1 prefix, every error as the
 * Error body, every JSON body checked against its DTO, each route's schemas taken from the OpenAPI document its decorators make) without
 * listening, and returns its Fastify instance for `inject`: the one set-up of the in-process tests.
 */
export async function readyInProcess(app: NestFastifyApplication, prefix = 'v1'): Promise<FastifyInstance> {
  app.setGlobalPrefix(prefix);
  app.useGlobalFilters(new ErrorBodyFilter());
  app.useGlobalPipes(new JsonBodyValidationPipe());
  applyRouteSchemas(app, SwaggerModule.createDocument(app, new DocumentBuilder().build(), { ignoreGlobalPrefix: true }));
  await app.init();
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  await fastify.ready();
  return fastify;
}
