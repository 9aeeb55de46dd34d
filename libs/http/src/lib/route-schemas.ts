import type { OpenAPIObject, ParameterObject, ReferenceObject, RequestBodyObject, SchemaObject } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { answerExactlyWithoutSchema } from './exact-json-serializer';
import type { ExactInteger } from './input-keywords';

type Schema = SchemaObject | ReferenceObject;
type Components = NonNullable<OpenAPIObject['components']>;
type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;
/** The Fastify schema of one route. */
export interface RouteSchemas {
  readonly params?: object;
  readonly querystring?: object;
  readonly body?: object;
  readonly response?: Readonly<Record<number, object>>;
}

/** What a string's pattern means, in words a refusal can say: a regular expression is no message. */
const PATTERN_MEANS = 'x-pattern-means';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;

/**
 * Gives each route its operation's schemas (docs/decisions/0007), all made at once so that an uncheckable one stops the start;
 * a route left without an answer schema answers by lossless-json, decided in the same hook so that no hook order can split them.
 */
export function registerRouteSchemas(fastify: FastifyInstance, document: OpenAPIObject): void {
  const schemas = schemasByRoute(document);
  fastify.addHook('onRoute', (route) => {
    // Fastify's HEAD route for a GET is the GET's, as HTTP says: it checks the same input.
    const found = [route.method]
      .flat()
      .flatMap((method) => (method === 'HEAD' ? ['HEAD', 'GET'] : [method]))
      .map((method) => schemas.get(`${method} ${route.url}`))
      .find((schema) => schema !== undefined);
    if (found) route.schema = { ...found, ...route.schema };
    answerExactlyWithoutSchema(route);
  });
}

/** The schemas of each operation of the document by its Fastify route, `GET /v1/pets/:petId`. */
function schemasByRoute(document: OpenAPIObject): Map<string, RouteSchemas> {
  const basePath = new URL(document.servers?.[0]?.url ?? '/', 'http://base').pathname.replace(/\/$/, '');
  const schemas = new Map<string, RouteSchemas>();
  for (const [path, item] of Object.entries(document.paths)) {
    const url = `${basePath}${path.replace(/\{([^}]+)\}/g, ':$1')}`;
    for (const method of METHODS) {
      const operation = item[method];
      const route = `${method.toUpperCase()} ${url}`;
      if (operation)
        schemas.set(route, routeSchemasOf(operation, document.components ?? {}, method, `${operation.operationId} (${route})`));
    }
  }
  return schemas;
}

function routeSchemasOf(operation: Operation, components: Components, method: string, name: string): RouteSchemas {
  const parameters = (operation.parameters ?? []).map((parameter) => resolve(parameter, components) as ParameterObject);
  const inPath = parameters.filter((parameter) => parameter.in === 'path');
  const params = inPath.length > 0 ? parametersSchema(inPath, components) : undefined;
  const querystring = parametersSchema(
    parameters.filter((parameter) => parameter.in === 'query'),
    components,
  );
  const body = bodySchema(operation, components, ['post', 'put', 'patch'].includes(method), name);
  const response: Record<number, object> = {};
  for (const [status, answer] of Object.entries(operation.responses ?? {})) {
    const schema = answer && 'content' in answer ? answer.content?.['application/json']?.schema : undefined;
    if (/^2\d\d$/.test(status) && schema) response[Number(status)] = serializationSchema(schema, components);
  }
  return {
    ...(params && { params }),
    querystring,
    ...(body && { body }),
    ...(Object.keys(response).length > 0 && { response }),
  };
}

// A POST, PUT or PATCH must document its body: swagger leaves out a @Body() typed with an interface, which would go unchecked.
function bodySchema(operation: Operation, components: Components, takesBody: boolean, name: string): object | undefined {
  const requestBody = operation.requestBody && (resolve(operation.requestBody, components) as RequestBodyObject);
  const schema = requestBody?.content['application/json']?.schema;
  if (schema === undefined) {
    if (requestBody || !takesBody) return undefined;
    throw new Error(`${name} declares no request body: type its @Body() with a DTO class whose properties carry @ApiProperty`);
  }
  const resolved = flatten(schema, components);
  if (resolved.type !== 'object' || Object.keys(resolved.properties ?? {}).length === 0) {
    throw new Error(`${name}: its request body is no object with properties; give its DTO's properties @ApiProperty`);
  }
  return inputSchema('', resolved, components, false);
}

// Closed: an unknown parameter is refused, naming those the operation takes (docs/decisions/0003).
function parametersSchema(parameters: readonly ParameterObject[], components: Components): object {
  const names = parameters.map((parameter) => parameter.name);
  return objectSchema(
    parameters.map((parameter) => {
      // Swagger leaves a parameter's extensions (x-pattern-means) beside its schema.
      const means = meansOf(parameter);
      const schema = { ...flatten(parameter.schema ?? {}, components), ...(means && { [PATTERN_MEANS]: means }) };
      return [parameter.name, inputSchema(parameter.name, schema, components, true)];
    }),
    parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    '',
    { additionalProperties: names.length > 0 ? `the query takes only ${names.join(', ')}` : 'this operation takes no query parameters' },
  );
}

function objectSchema(properties: [string, object][], required: readonly string[], prefix: string, messages: object): object {
  return {
    type: 'object',
    properties: Object.fromEntries(properties),
    required,
    additionalProperties: false,
    errorMessage: {
      ...messages,
      ...(required.length > 0 && { required: Object.fromEntries(required.map((key) => [key, `${prefix}${key} is required`])) }),
    },
  };
}

// One input's schema, a message per rule naming it. Query and path values are text: an array there is a repeated parameter.
function inputSchema(path: string, schema: SchemaObject, components: Components, text: boolean): object {
  const must = (what: string) => `${path} must be ${what}`;
  const givenOnce = text && { type: `${path} must be given once` };
  if (schema.type === 'integer') {
    const integer: ExactInteger = {
      format: schema.format === 'int32' ? 'int32' : 'int64',
      ...(schema.minimum !== undefined && { minimum: schema.minimum }),
      ...(schema.maximum !== undefined && { maximum: schema.maximum }),
      text,
    };
    return {
      ...(text && { type: 'string' }),
      exactInteger: integer,
      ...(text && schema.default !== undefined && { default: String(schema.default) }),
      errorMessage: { ...givenOnce, exactInteger: must(integerDescription(integer)) },
    };
  }
  if (schema.type === 'string') {
    const { enum: values, minLength, maxLength, pattern, format } = schema;
    const oneOf = values && must(`one of ${values.join(', ')}`);
    const length = must(lengthDescription(minLength, maxLength));
    return {
      type: 'string',
      wellFormed: true,
      ...pick(schema, ['enum', 'minLength', 'maxLength', 'pattern', 'format', 'default']),
      errorMessage: {
        type: oneOf ?? must('a string'),
        ...givenOnce,
        wellFormed: must('valid Unicode (no lone surrogates)'),
        ...(oneOf && { enum: oneOf }),
        ...(minLength !== undefined && { minLength: length }),
        ...(maxLength !== undefined && { maxLength: length }),
        ...(pattern && { pattern: `${path} ${meansOf(schema) ?? `must match ${pattern}`}` }),
        ...(format && { format: must(`a ${format}`) }),
      },
    };
  }
  if (schema.type === 'object' && !text) {
    const prefix = path ? `${path}.` : '';
    const properties = Object.entries(schema.properties ?? {}).map(
      ([key, value]) => [key, inputSchema(`${prefix}${key}`, flatten(value, components), components, false)] as [string, object],
    );
    return objectSchema(properties, schema.required ?? [], prefix, {
      type: path ? must('an object') : 'Request body must be a JSON object',
      additionalProperties: `${path || 'the body'} takes only ${properties.map(([key]) => key).join(', ')}`,
    });
  }
  throw new Error(
    `${path || 'A request body'}: ${String(schema.type ?? 'a schema without a type')} is no input route-schemas.ts checks yet; ` +
      'teach its inputSchema the rules and their messages',
  );
}

function meansOf(value: object): string | undefined {
  return (value as { [PATTERN_MEANS]?: string })[PATTERN_MEANS];
}

function integerDescription({ format, minimum, maximum }: ExactInteger): string {
  if (minimum === undefined && maximum === undefined) return format === 'int64' ? 'a 64-bit integer' : 'a 32-bit integer';
  const half = format === 'int64' ? 2n ** 63n : 2n ** 31n;
  return `an integer from ${minimum ?? -half} to ${maximum ?? half - 1n}`;
}

function lengthDescription(minLength?: number, maxLength?: number): string {
  if (maxLength === undefined) return `at least ${minLength} characters long`;
  return minLength === undefined ? `at most ${maxLength} characters long` : `${minLength} to ${maxLength} characters long`;
}

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]])) as Partial<Pick<T, K>>;
}

// What fast-json-stringify needs: types, properties, required; a field missing from the schema is never written.
function serializationSchema(schema: Schema, components: Components): object {
  const resolved = flatten(schema, components);
  if (resolved.type === 'array') return { type: 'array', items: serializationSchema(resolved.items ?? {}, components) };
  if (resolved.type === 'object') {
    const properties = Object.entries(resolved.properties ?? {}).map(
      ([key, value]) => [key, serializationSchema(value, components)] as const,
    );
    return { type: 'object', properties: Object.fromEntries(properties), required: resolved.required ?? [] };
  }
  return { type: resolved.type };
}

/** A schema with its reference resolved and a lone `allOf` (how swagger adds a description to a $ref) unwrapped. */
function flatten(schema: Schema, components: Components): SchemaObject {
  const resolved = resolve<SchemaObject>(schema, components);
  return resolved.allOf?.length === 1 ? { ...flatten(resolved.allOf[0], components), ...withoutAllOf(resolved) } : resolved;
}

function withoutAllOf({ allOf: _allOf, ...rest }: SchemaObject): SchemaObject {
  return rest;
}

function resolve<T extends object>(value: T | ReferenceObject, components: Components): T | SchemaObject {
  if (!('$ref' in value)) return value;
  const [, , section, name] = value.$ref.split('/');
  const target = (components as Record<string, Record<string, T> | undefined>)[section]?.[name];
  if (!target) throw new Error(`The document has no ${value.$ref}`);
  return target;
}
