// Writes the OpenAPI document the service serves to openapi/petstore.openapi.json, without
// listening or touching a database: `npm run openapi`. CI regenerates it and fails on a diff.
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { loadConfig } from '@petstore/core';
import { createApiDocument } from './api-docs';
import { AppModule } from './app.module';

// Run from dist/apps/api/src.
const OPENAPI_FILE = resolve(__dirname, '../../../../openapi/petstore.openapi.json');

async function exportOpenApi(): Promise<void> {
  // Modules are only instantiated, never initialised: nothing connects to a database.
  const app = await NestFactory.create(AppModule.register(loadConfig({}), []), new FastifyAdapter(), { logger: false });
  writeFileSync(OPENAPI_FILE, `${JSON.stringify(createApiDocument(app), null, 2)}\n`);
  await app.close();
  console.log(`OpenAPI document written to ${OPENAPI_FILE}`);
}

void exportOpenApi();
