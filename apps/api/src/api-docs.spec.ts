import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { applyRouteSchemas, loadConfig } from '@petstore/core';
import { createApiDocument } from './api-docs';
import { AppModule } from './app.module';

// Walks every route of the real application and its operation in the document: a route whose
// decorators were forgotten fails here, not in a client's hands.

type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;

function operationsOf(document: OpenAPIObject): Array<[string, Operation]> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    (['get', 'put', 'post', 'delete', 'patch'] as const).flatMap((method) => {
      const operation = item[method];
      return operation ? [[`${method.toUpperCase()} ${path}`, operation] as [string, Operation]] : [];
    }),
  );
}

describe('the OpenAPI document of every route', () => {
  let app: INestApplication;
  let document: OpenAPIObject;

  beforeAll(async () => {
    // Instantiated, never initialised: nothing connects to a database.
    app = await NestFactory.create(AppModule.register(loadConfig({}), []), new FastifyAdapter(), { logger: false });
    document = createApiDocument(app);
  });
  afterAll(() => app.close());

  it('gives every route its schemas (each has an operationId the document knows)', () => {
    expect(() => applyRouteSchemas(app, document)).not.toThrow();
    expect(operationsOf(document).length).toBeGreaterThan(0);
  });

  it('documents a JSON schema for every success that has a body', () => {
    for (const [name, operation] of operationsOf(document)) {
      const successes = Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status));
      expect({ name, hasSuccess: successes.length > 0 }).toEqual({ name, hasSuccess: true });
      for (const [status, answer] of successes) {
        const schema = answer && 'content' in answer ? answer.content?.['application/json']?.schema : undefined;
        expect({ name, status, hasSchema: status === '204' || schema !== undefined }).toEqual({ name, status, hasSchema: true });
      }
    }
  });

  it('documents the answers a request can get whatever it sends, and those its input can cause', () => {
    for (const [name, operation] of operationsOf(document)) {
      const parameters = (operation.parameters ?? []) as Array<{ in?: string }>;
      const expected = [
        '401',
        '429',
        '500',
        '503',
        ...(parameters.length > 0 || operation.requestBody ? ['400'] : []),
        ...(parameters.some((parameter) => parameter.in === 'path') ? ['404'] : []),
        ...(operation.requestBody ? ['413', '415'] : []),
      ];
      const missing = expected.filter((status) => !(status in operation.responses));
      expect({ name, missing }).toEqual({ name, missing: [] });
    }
  });
});
