import type { INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { loadConfig } from '@petstore/config';
import { createApp } from './create-app';
import { operationsOf } from './testing/document';

// Walks every route of the real application and its operation in the document: a route whose
// decorators were forgotten fails here, not in a client's hands.

const named = (document: OpenAPIObject) =>
  operationsOf(document).map(({ method, path, operation }) => [`${method} ${path}`, operation] as const);

describe('the OpenAPI document of every route', () => {
  let app: INestApplication;
  let document: OpenAPIObject;

  beforeAll(async () => {
    // Built, never initialised: nothing connects to a database. createApp gave every route its
    // schemas: a route without an operationId the document knows would have thrown here.
    ({ app, document } = await createApp(loadConfig({}), { documentOnly: true, logLevel: 'silent' }));
  });
  afterAll(() => app.close());

  it('documents at least one operation', () => {
    expect(operationsOf(document).length).toBeGreaterThan(0);
  });

  it("gives every operation a summary and a description (Spectral's rules in CI's lint: here, so that npm test says it first)", () => {
    for (const [name, { summary, description }] of named(document)) {
      expect({ name, summary: Boolean(summary), description: Boolean(description), fix: 'ApiOperation({ summary, description })' }).toEqual(
        {
          name,
          summary: true,
          description: true,
          fix: expect.any(String),
        },
      );
    }
  });

  it('documents a JSON schema for every success that has a body', () => {
    for (const [name, operation] of named(document)) {
      const successes = Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status));
      expect({ name, hasSuccess: successes.length > 0 }).toEqual({ name, hasSuccess: true });
      for (const [status, answer] of successes) {
        const schema = answer && 'content' in answer ? answer.content?.['application/json']?.schema : undefined;
        expect({ name, status, hasSchema: status === '204' || schema !== undefined }).toEqual({ name, status, hasSchema: true });
      }
    }
  });

  it('documents the answers a request can get whatever it sends, and those its input can cause', () => {
    for (const [name, operation] of named(document)) {
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
