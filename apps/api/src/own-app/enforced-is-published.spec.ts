import { Inject, Injectable, Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { OpenAPIObject, ParameterObject, ReferenceObject, RequestBodyObject, SchemaObject } from '@nestjs/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { basePathOf, operationsOf } from '../testing/document';
import { type InProcessApp, startInProcessApp } from '../testing/in-process-app';

// For every operation of the real application, the schema Fastify enforces (as the route was
// registered) is the schema the document publishes: the route's is made from its handler's
// declarations, and so is the document, so an @ApiProperty option, `nullable` or a required header
// that only one of them says fails here, naming the operation and what differs.

type Schema = SchemaObject | ReferenceObject;
type Components = NonNullable<OpenAPIObject['components']>;

/** What a value may be, as both sides can state it: the keywords that change what is accepted. */
const ACCEPTS = ['type', 'format', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'enum', 'nullable', 'items', 'oneOf'];

interface Shape {
  readonly required: readonly string[];
  readonly properties: Readonly<Record<string, object>>;
}

@Injectable()
class RegisteredRoutes {
  readonly schemas = new Map<string, FastifySchema>();
  constructor(@Inject(HttpAdapterHost) host: HttpAdapterHost) {
    // Providers are made before the routes are registered (app.init): every route passes here.
    host.httpAdapter.getInstance<FastifyInstance>().addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) if (route.schema) this.schemas.set(`${method} ${route.url}`, route.schema);
    });
  }
}

@Module({ providers: [RegisteredRoutes] })
class RegisteredRoutesModule {}

describe('the schema each route enforces is the one the document publishes', () => {
  let petstore: InProcessApp;
  beforeAll(async () => {
    petstore = await startInProcessApp({}, { imports: [RegisteredRoutesModule] });
  });
  afterAll(() => petstore?.close());

  it('for the inputs (path, query, body, headers) and the 2xx answers of every operation', () => {
    const { document } = petstore;
    const registered = petstore.app.get(RegisteredRoutes).schemas;
    const components = document.components ?? {};
    for (const { method, path, operationId, operation } of operationsOf(document)) {
      const enforced = registered.get(`${method} ${basePathOf(document)}${path.replace(/\{([^}]+)\}/g, ':$1')}`) ?? {};
      const parameters = (operation.parameters ?? []).map((parameter) => resolve(parameter, components) as ParameterObject);
      const published = (where: string) => publishedParameters(parameters, where, components);
      const requestBody = operation.requestBody && (resolve(operation.requestBody, components) as RequestBodyObject);
      const body = requestBody?.content['application/json']?.schema;
      const answers = Object.entries(operation.responses)
        .filter(([status]) => /^2\d\d$/.test(status))
        .map(([status, answer]) => {
          const schema = answer && 'content' in answer ? answer.content?.['application/json']?.schema : undefined;
          return [status, schema && typeOnly(schema, components)] as const;
        });
      expect({
        operationId,
        params: published('path'),
        querystring: published('query'),
        requiredHeaders: published('header').required,
        body: body && objectShape(flatten(body, components), components),
        answers: Object.fromEntries(answers.filter(([, schema]) => schema !== undefined)),
      }).toEqual({
        operationId,
        params: enforcedShape(enforced.params),
        querystring: enforcedShape(enforced.querystring),
        requiredHeaders: enforcedShape(enforced.headers).required,
        body: enforced.body === undefined ? undefined : enforcedShape(enforced.body),
        answers: Object.fromEntries(Object.entries(enforced.response ?? {})),
      });
    }
  });
});

function publishedParameters(parameters: readonly ParameterObject[], where: string, components: Components): Shape {
  const here = parameters.filter((parameter) => parameter.in === where);
  return {
    required: here.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    properties: Object.fromEntries(here.map((parameter) => [parameter.name, accepted(flatten(parameter.schema ?? {}, components))])),
  };
}

function objectShape(schema: SchemaObject, components: Components): Shape {
  return {
    required: schema.required ?? [],
    properties: Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([key, value]) => [key, accepted(flatten(value, components))]),
    ),
  };
}

/** The route's schema in the document's terms: exactInteger is an integer of its format and bounds; a text default is its value. */
function enforcedShape(schema: unknown): Shape {
  const { properties = {}, required = [] } = (schema ?? {}) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return {
    required,
    properties: Object.fromEntries(
      Object.entries(properties).map(([key, { exactInteger, type, default: defaultValue, ...rest }]) => {
        const integer = exactInteger as { format: string; minimum?: number; maximum?: number } | undefined;
        const stated = integer ? { type: 'integer', format: integer.format, minimum: integer.minimum, maximum: integer.maximum } : { type };
        return [key, accepted({ ...rest, ...stated, default: defaultValue })];
      }),
    ),
  };
}

function accepted(schema: object): object {
  const entries: [string, unknown][] = Object.entries(schema).filter(([key, value]) => ACCEPTS.includes(key) && value !== undefined);
  const { default: given } = schema as { default?: string | number };
  return Object.fromEntries([...entries, ...(given === undefined ? [] : [['default', String(given)] as const])]);
}

/** What an answer's serializer needs of a schema: types, properties, required. */
function typeOnly(schema: Schema, components: Components): object {
  const resolved = flatten(schema, components);
  if (resolved.type === 'array') return { type: 'array', items: typeOnly(resolved.items ?? {}, components) };
  if (resolved.type !== 'object') return { type: resolved.type };
  const properties = Object.entries(resolved.properties ?? {}).map(([key, value]) => [key, typeOnly(value, components)]);
  return { type: 'object', properties: Object.fromEntries(properties), required: resolved.required ?? [] };
}

function flatten(schema: Schema, components: Components): SchemaObject {
  const resolved = resolve(schema, components) as SchemaObject;
  if (resolved.allOf?.length !== 1) return resolved;
  const { allOf, ...rest } = resolved;
  return { ...flatten(allOf[0], components), ...rest };
}

function resolve(value: object, components: Components): object {
  if (!('$ref' in value)) return value;
  const [, , section, name] = String(value.$ref).split('/');
  return (components as Record<string, Record<string, object>>)[section][name];
}
