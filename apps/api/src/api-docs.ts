import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { configDefault } from '@petstore/config';
import { DOCS_PAGE_HEADERS } from '@petstore/http';
import { documentErrorCodes } from '@petstore/http-errors';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { API_PREFIX } from './app.module';
import { exactJsonResponseBodyPlugin } from './exact-json-plugin';

/** The OpenAPI document, generated from the controllers' decorators. Paths are relative to the servers, which end in /v1. */
export function createApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Petstore')
    .setDescription(
      'An animal store interface. ' +
        'Every operation requires a bearer API key. Every error answer is an `Error` body whose `status` equals the HTTP status. ' +
        'A query parameter an operation does not list, or one given twice, is refused with 400 `VALIDATION_FAILED` naming it. ' +
        `Each key may make a number of requests per minute (${configDefault('RATE_LIMIT_PER_MINUTE')} unless the operator sets otherwise), ` +
        `and each client address a number of failed authentications (${configDefault('RATE_LIMIT_AUTH_FAILURES_PER_MINUTE')}); ` +
        'past either the answer is 429 with `Retry-After`. Every answer states the limit that applies in the ' +
        '`RateLimit-Policy` and `RateLimit` headers (IETF draft-ietf-httpapi-ratelimit-headers).',
    )
    .setVersion('1.0.0')
    .addServer('https://petstore.example.com/v1', 'Production')
    .addServer('https://staging.petstore.example.com/v1', 'Staging')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'API key',
        description: 'An API key (`ps_<prefix>_<secret>`, issued by the operators), sent as `Authorization: Bearer <API key>`',
      },
      'bearer',
    )
    // Secure by default, in the document as in the service: every operation requires the key.
    .addSecurityRequirements('bearer')
    .addTag('pets', 'Animals held in the store')
    .build();
  const document = SwaggerModule.createDocument(app, config, { ignoreGlobalPrefix: true });
  documentErrorCodes(app, document);
  // The service refuses unknown body properties and never sends any: every object it names is closed.
  for (const schema of Object.values(document.components?.schemas ?? {})) {
    if ('type' in schema && schema.type === 'object') schema.additionalProperties = false;
  }
  document.info.contact = { name: 'Petstore team', email: 'petstore-team@example.com' };
  document.info.license = { name: 'Proprietary' };
  // Who each server is for (OWASP API9): both are public. A running instance names itself (servedDocument).
  for (const server of document.servers ?? []) Object.assign(server, { 'x-internal': false });
  return document;
}

/** Where Swagger UI is served. */
export const DOCS_PATH = 'docs';

const JSON_DOCUMENT = 'openapi.json';
const YAML_DOCUMENT = 'openapi.yaml';

/** A route of the docs is public; Swagger UI's page and files get the headers it needs to run, the documents the API's. */
function docsRoutePolicy(url: string): FastifyContextConfig | undefined {
  const path = url.replace(/^\//, '');
  if (path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`)) return { public: true, securityHeaders: DOCS_PAGE_HEADERS };
  if (path === '' || path === JSON_DOCUMENT || path === YAML_DOCUMENT) return { public: true };
  return undefined;
}

/** Relative, so a tool importing an instance's /openapi.json calls that instance: docs/contract.md, "The OpenAPI document". */
export const SAME_ORIGIN_SERVER: NonNullable<OpenAPIObject['servers']>[number] = { url: `/${API_PREFIX}`, description: 'This server' };

/** The document as an instance serves it: the committed one, with the same-origin server first. */
export function servedDocument(document: OpenAPIObject): OpenAPIObject {
  return { ...document, servers: [SAME_ORIGIN_SERVER, ...(document.servers ?? [])] };
}

/** Serves Swagger UI at /docs and the document at /openapi.json and /openapi.yaml, the same-origin server first. */
export function serveApiDocs(app: INestApplication, document: OpenAPIObject): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  // SwaggerModule registers its routes with Fastify itself, without a handler to declare their policy on.
  fastify.addHook('onRoute', (route) => {
    const policy = docsRoutePolicy(route.url);
    if (policy) route.config = { ...route.config, ...policy };
  });
  fastify.get('/', (_request, reply) => reply.redirect(`/${DOCS_PATH}`, 302));
  SwaggerModule.setup(DOCS_PATH, app, servedDocument(document), {
    customSiteTitle: `${document.info.title} API`,
    jsonDocumentUrl: JSON_DOCUMENT,
    yamlDocumentUrl: YAML_DOCUMENT,
    swaggerOptions: {
      persistAuthorization: true,
      plugins: [exactJsonResponseBodyPlugin],
    },
  });
}
