import type { OpenAPIObject } from '@nestjs/swagger';
import { corsHeadersOf } from './cors-headers';

/** A document of some API of the test's own, with headers in every place one can be named. */
const DOCUMENT = {
  openapi: '3.0.0',
  info: { title: 'Things', version: '1' },
  paths: {
    '/things': {
      parameters: [{ name: 'X-Tenant', in: 'header', schema: { type: 'string' } }],
      get: {
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }, { $ref: '#/components/parameters/TraceParent' }],
        responses: {
          '200': {
            description: 'Things',
            headers: { Link: { schema: { type: 'string' } }, 'x-request-id': { schema: { type: 'string' } } },
          },
          '429': { $ref: '#/components/responses/TooMany' },
        },
      },
      post: {
        parameters: [{ name: 'If-Match', in: 'header', schema: { type: 'string' } }],
        requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
        responses: { '201': { description: 'Made', headers: { Location: { schema: { type: 'string' } } } } },
      },
    },
  },
  components: {
    parameters: { TraceParent: { name: 'traceparent', in: 'header', schema: { type: 'string' } } },
    responses: { TooMany: { description: 'Too many', headers: { 'Retry-After': { schema: { type: 'integer' } } } } },
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer' },
      key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      cookie: { type: 'apiKey', in: 'cookie', name: 'session' },
    },
  },
} as unknown as OpenAPIObject;

describe('corsHeadersOf', () => {
  it("allows the document's header parameters, the schemes' credential headers, Content-Type for a body, and X-Request-Id", () => {
    expect(corsHeadersOf(DOCUMENT).allowedHeaders).toEqual([
      'Authorization',
      'Content-Type',
      'If-Match',
      'traceparent',
      'X-Api-Key',
      'X-Request-Id',
      'X-Tenant',
    ]);
  });

  it('exposes every header an answer documents, and X-Request-Id, once whatever its case', () => {
    expect(corsHeadersOf(DOCUMENT).exposedHeaders).toEqual(['Link', 'Location', 'Retry-After', 'X-Request-Id']);
  });

  it('allows and exposes X-Request-Id alone for a document without headers', () => {
    const empty = { openapi: '3.0.0', info: { title: 'None', version: '1' }, paths: {} } as OpenAPIObject;
    expect(corsHeadersOf(empty)).toEqual({ allowedHeaders: ['X-Request-Id'], exposedHeaders: ['X-Request-Id'] });
  });
});
