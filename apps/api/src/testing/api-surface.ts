import type { OpenAPIObject } from '@nestjs/swagger';
import { basePathOf, operationsOf, parametersOf } from './document';

// What a generator of requests needs to know of the API, read from the committed document: each
// operation's method and path, its path and query parameters, and the fields of its JSON body.
// The fuzz test builds its requests from this, so that a new operation is fuzzed without a word
// in the test.

/** What a body field or a parameter holds, as far as making hostile values of it goes. */
export type ValueKind =
  | { readonly kind: 'string'; readonly minLength: number; readonly maxLength: number }
  | { readonly kind: 'integer'; readonly min: bigint; readonly max: bigint }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'other' };

export interface BodyField {
  readonly name: string;
  readonly required: boolean;
  readonly value: ValueKind;
}

export interface SurfaceOperation {
  /** Upper case, as on the wire. */
  readonly method: string;
  /** The full path template, base path included (e.g. /v1/pets/{petId}). */
  readonly path: string;
  readonly pathParameters: readonly string[];
  readonly queryParameters: ReadonlyArray<{ readonly name: string; readonly value: ValueKind }>;
  /** The fields of its JSON body (an object), if it takes one. */
  readonly body?: readonly BodyField[];
}

export interface ApiSurface {
  /** The document's base path, e.g. /v1. */
  readonly basePath: string;
  readonly operations: readonly SurfaceOperation[];
}

type Schema = {
  $ref?: string;
  allOf?: Schema[];
  type?: string;
  format?: string;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
};

const INT64 = { min: -(1n << 63n), max: (1n << 63n) - 1n };
const INT32 = { min: -(1n << 31n), max: (1n << 31n) - 1n };

export function apiSurfaceOf(document: OpenAPIObject): ApiSurface {
  const resolve = (schema: Schema | undefined): Schema => {
    if (!schema) return {};
    if (schema.$ref) {
      const name = schema.$ref.replace('#/components/schemas/', '');
      return resolve(document.components?.schemas?.[name] as Schema | undefined);
    }
    if (schema.allOf) return Object.assign({}, ...schema.allOf.map(resolve), { ...schema, allOf: undefined }) as Schema;
    return schema;
  };
  const kindOf = (given: Schema | undefined): ValueKind => {
    const schema = resolve(given);
    if (schema.enum) return { kind: 'enum', values: schema.enum.map(String) };
    if (schema.type === 'string') return { kind: 'string', minLength: schema.minLength ?? 0, maxLength: schema.maxLength ?? 255 };
    if (schema.type === 'integer') {
      const range = schema.format === 'int32' ? INT32 : INT64;
      return {
        kind: 'integer',
        min: schema.minimum === undefined ? range.min : BigInt(schema.minimum),
        max: schema.maximum === undefined ? range.max : BigInt(schema.maximum),
      };
    }
    return { kind: 'other' };
  };
  const basePath = basePathOf(document);
  return {
    basePath,
    operations: operationsOf(document).map((entry) => {
      const parameters = parametersOf(entry) as Array<{ name: string; in: string; schema?: Schema }>;
      const bodySchema = (entry.operation.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)?.content?.[
        'application/json'
      ]?.schema;
      const body = bodySchema ? resolve(bodySchema) : undefined;
      return {
        method: entry.method,
        path: `${basePath}${entry.path}`,
        pathParameters: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParameters: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, value: kindOf(p.schema) })),
        body: body?.properties
          ? Object.entries(body.properties).map(([name, schema]) => ({
              name,
              required: body.required?.includes(name) ?? false,
              value: kindOf(schema),
            }))
          : undefined,
      };
    }),
  };
}
