import type { OpenAPIObject, ParameterObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { INTEGER_TEXT_KEYWORD, type IntegerText } from './integer-text.keyword';

// Fastify's route schemas, taken from the OpenAPI document that @nestjs/swagger builds from the
// controllers' decorators and DTOs. The document is the one definition of every parameter and
// answer: what clients read, what ajv checks in the query and the path, and what
// fast-json-stringify writes. Nothing here knows a feature; a route is found by its method and path.

type Schema = SchemaObject | ReferenceObject;
type Components = NonNullable<OpenAPIObject['components']>;
type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;
/** The Fastify schema of one route. */
export interface RouteSchemas {
  readonly params?: object;
  readonly querystring?: object;
  readonly response?: Readonly<Record<number, object>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;

/**
 * Gives each route the document describes the schemas of its operation, as Fastify registers it:
 * the route's method and path, under the document's base path, name the operation. Register it
 * before the routes are (Nest registers them at init).
 */
export function registerRouteSchemas(fastify: FastifyInstance, document: OpenAPIObject): void {
  const operations = operationsByRoute(document);
  fastify.addHook('onRoute', (route) => {
    // Fastify's HEAD route for a GET is the GET's, as HTTP says: it checks the same input.
    const operation = [route.method]
      .flat()
      .flatMap((method) => (method === 'HEAD' ? ['HEAD', 'GET'] : [method]))
      .map((method) => operations.get(`${method} ${route.url}`))
      .find((found) => found !== undefined);
    if (operation) route.schema = { ...routeSchemasOf(operation, document.components ?? {}), ...route.schema };
  });
}

/** Each operation of the document by its Fastify route, `GET /v1/pets/:petId`. */
function operationsByRoute(document: OpenAPIObject): Map<string, Operation> {
  const basePath = new URL(document.servers?.[0]?.url ?? '/', 'http://base').pathname.replace(/\/$/, '');
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(document.paths)) {
    const url = `${basePath}${path.replace(/\{([^}]+)\}/g, ':$1')}`;
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) operations.set(`${method.toUpperCase()} ${url}`, operation);
    }
  }
  return operations;
}

/** The Fastify schemas of one operation: path and query parameters, and each 2xx JSON answer. */
export function routeSchemasOf(operation: Operation, components: Components): RouteSchemas {
  const parameters = (operation.parameters ?? []).map((parameter) => resolve(parameter, components) as ParameterObject);
  const params = parametersSchema(
    parameters.filter((parameter) => parameter.in === 'path'),
    components,
  );
  const querystring = querySchema(
    parameters.filter((parameter) => parameter.in === 'query'),
    components,
  );
  const response: Record<number, object> = {};
  for (const [status, answer] of Object.entries(operation.responses ?? {})) {
    const schema = answer && 'content' in answer ? answer.content?.['application/json']?.schema : undefined;
    if (/^2\d\d$/.test(status) && schema) response[Number(status)] = serializationSchema(schema, components);
  }
  return {
    ...(params && { params }),
    ...(querystring && { querystring }),
    ...(Object.keys(response).length > 0 && { response }),
  };
}

/** The object schema ajv checks a route's path or query parameters against; undefined without any. */
function parametersSchema(parameters: readonly ParameterObject[], components: Components): object | undefined {
  if (parameters.length === 0) return undefined;
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameterSchema(parameter, components)])),
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  };
}

/**
 * The query's schema: its parameters, and no other. A misspelt or unsupported parameter (`limt`,
 * `offset`) is refused, naming the ones the operation takes, rather than silently ignored.
 */
function querySchema(parameters: readonly ParameterObject[], components: Components): object {
  const names = parameters.map((parameter) => parameter.name);
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameterSchema(parameter, components)])),
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    additionalProperties: false,
    errorMessage: {
      additionalProperties: names.length > 0 ? `the query takes only ${names.join(', ')}` : 'this operation takes no query parameters',
    },
  };
}

/**
 * A parameter's schema as ajv checks the text that arrived. Integers are matched as canonical
 * decimals (ajv's coercion would take "1e2", "+5" or " 5") within their bounds and handed to the
 * handler as a number (int32) or a bigint (int64). Every failure says what the parameter must be.
 */
function parameterSchema({ name, schema }: ParameterObject, components: Components): object {
  const resolved = flatten(schema ?? {}, components);
  if (resolved.type === 'integer') {
    const integer: IntegerText = {
      format: resolved.format === 'int64' ? 'int64' : 'int32',
      ...(resolved.minimum !== undefined && { minimum: resolved.minimum }),
      ...(resolved.maximum !== undefined && { maximum: resolved.maximum }),
    };
    return {
      type: 'string',
      [INTEGER_TEXT_KEYWORD]: integer,
      ...(resolved.default !== undefined && { default: String(resolved.default) }),
      errorMessage: { type: givenOnce(name), [INTEGER_TEXT_KEYWORD]: `${name} must be ${integerDescription(integer)}` },
    };
  }
  if (resolved.type === 'string' && resolved.enum) {
    return {
      type: 'string',
      enum: resolved.enum,
      errorMessage: { type: givenOnce(name), enum: `${name} must be one of ${resolved.enum.join(', ')}` },
    };
  }
  throw new Error(`Parameter ${name}: only integer and enumerated string parameters are checked; describe the new kind here`);
}

/** A parameter's text is a string unless the parameter was repeated, which arrives as a list. */
function givenOnce(name: string): string {
  return `${name} must be given once`;
}

function integerDescription({ format, minimum, maximum }: IntegerText): string {
  if (minimum !== undefined && maximum !== undefined) return `an integer from ${minimum} to ${maximum}`;
  return format === 'int64' ? 'a 64-bit integer' : 'a 32-bit integer';
}

/**
 * What fast-json-stringify needs to write an answer: types, properties and which are required,
 * with references resolved. Constraints and descriptions are the document's business; a field
 * missing from the schema is never written.
 */
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
