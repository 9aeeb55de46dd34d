import type { FastifyInstance } from 'fastify';

// Fastify's serializer leaves out a field its schema does not name, so a field the document forgot
// would vanish from every answer without a word. In the in-process suite it fails the test instead.

interface AnswerSchema {
  readonly properties?: Readonly<Record<string, AnswerSchema>>;
  readonly items?: AnswerSchema;
}

const found: string[] = [];

/** Records every answer field the route's response schema does not name (Fastify's public routeOptions.schema). */
export function recordUndocumentedFields(fastify: FastifyInstance): void {
  fastify.addHook('preSerialization', (request, reply, payload, done) => {
    const schema = (request.routeOptions.schema?.response as Readonly<Record<number, AnswerSchema>> | undefined)?.[reply.statusCode];
    const fields = schema ? undocumentedFields(payload, schema, '') : [];
    if (fields.length > 0) {
      found.push(
        `${request.method} ${request.routeOptions.url} answered ${reply.statusCode} with ${fields.join(', ')}, which its schema ` +
          'does not name, so the answer leaves it out: document it (@ApiProperty on the response DTO) and run npm run openapi',
      );
    }
    done(null, payload);
  });
}

/** The undocumented fields recorded since the last call, emptied. */
export function takeUndocumentedFields(): string[] {
  return found.splice(0);
}

function undocumentedFields(value: unknown, schema: AnswerSchema, path: string): string[] {
  if (Array.isArray(value)) {
    const { items } = schema;
    return items ? value.flatMap((item, index) => undocumentedFields(item, items, `${path}[${index}]`)) : [];
  }
  if (typeof value !== 'object' || value === null || !schema.properties) return [];
  const { properties } = schema;
  return Object.entries(value).flatMap(([key, field]) => {
    if (field === undefined) return [];
    const known = properties[key];
    return known ? undocumentedFields(field, known, `${path}.${key}`) : [`${path}.${key}`.slice(1)];
  });
}
