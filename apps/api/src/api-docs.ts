import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/** The OpenAPI document, generated from the controllers' decorators. Paths are relative to the servers, which end in /v1. */
export function createApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Petstore')
    .setDescription(
      'An animal store interface with three operations: list animals, add an animal, get one animal (deprecated). ' +
        'Every operation requires a bearer API key. Every error answer is an `Error` body whose `status` equals the HTTP status. ' +
        'Each key may make a number of requests per minute (6000 unless the operator sets otherwise), and each client address a number of ' +
        'failed authentications (600); past either the answer is 429 with `Retry-After`. Every answer states the limit that applies in the ' +
        '`RateLimit-Policy` and `RateLimit` headers (IETF draft-ietf-httpapi-ratelimit-headers).',
    )
    .setVersion('1.0.0')
    .addServer('https://petstore.example.com/v1', 'Production')
    .addServer('https://staging.petstore.example.com/v1', 'Staging')
    .addServer('http://localhost:3000/v1', 'Local')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'An API key (`ps_<prefix>_<secret>`, issued by the operators), sent as `Authorization: Bearer <API key>`' }, 'bearer')
    .addTag('pets', 'Animals held in the store')
    .build();
  const document = SwaggerModule.createDocument(app, config, { ignoreGlobalPrefix: true });
  // The service refuses unknown body properties and never sends any: say so.
  for (const name of ['Pet', 'NewPet', 'Error']) {
    Object.assign(document.components?.schemas?.[name] ?? {}, { additionalProperties: false });
  }
  document.info.contact = { name: 'Petstore team', email: 'petstore-team@example.com' };
  document.info.license = { name: 'Proprietary' };
  // Who each server is for (OWASP API9): the public environments, and a developer's machine.
  for (const server of document.servers ?? []) Object.assign(server, { 'x-internal': server.description === 'Local' });
  return document;
}

/** Where Swagger UI is served. */
export const DOCS_PATH = 'docs';

/** Serves the document at /openapi.json and Swagger UI at /docs. */
export function serveApiDocs(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup(DOCS_PATH, app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    swaggerOptions: { persistAuthorization: true },
  });
}
