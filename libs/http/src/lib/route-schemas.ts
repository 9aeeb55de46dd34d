import { Controller, type Type } from '@nestjs/common';
import { METHOD_METADATA, PARAMTYPES_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { RouteSchema } from '@nestjs/platform-fastify';
import { DECORATORS, type SchemaObject } from '@nestjs/swagger';
import { type ExactInteger, integerBounds } from './input-keywords';
import { isApiModel } from './input-rules';
import { RoutePolicy } from './route-policy';
import { documentStandardAnswers } from './standard-answers';

/** The Fastify schema of one route. */
export interface RouteSchemas {
  readonly params?: object;
  readonly querystring: object;
  readonly body?: object;
  readonly response?: Readonly<Record<number, object>>;
}

/** A DTO property as @nestjs/swagger documents it: `ApiProperty`'s options, the compiled rules among them. */
type DocumentedProperty = Omit<SchemaObject, 'type' | 'required'> & {
  readonly type?: unknown;
  readonly required?: boolean;
  readonly isArray?: boolean;
};

/** What a string's pattern means, in words a refusal can say: a regular expression is no message. */
const PATTERN_MEANS = 'x-pattern-means';
/** The documented options that only describe: any other changes what is accepted, and must be checked or refused. */
const DESCRIBING = new Set(['description', 'example', 'examples', 'enumName', 'title', 'deprecated']);
/** The options `inputSchema` checks. */
const CHECKED = new Set(['type', 'format', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'enum', 'default', PATTERN_MEANS]);
const TYPE_OF_CONSTRUCTOR = new Map<unknown, string>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
]);

/**
 * A controller whose every route takes its Fastify schema from what its handler declares (docs/decisions/0007): the DTOs of
 * `@Param()`, `@Query()` and `@Body()`, and the 2xx answer its `ApiResponse` documents. The document reads the same declarations,
 * with the refusals they imply (documentStandardAnswers).
 */
export function ApiController(path: string): ClassDecorator {
  return (target) => {
    Controller(path)(target);
    const controller = target as unknown as Type;
    const prototype = controller.prototype as object;
    for (const method of routeHandlerNames(controller)) {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, method) as PropertyDescriptor;
      const schema = routeSchemaOf(controller, method);
      RouteSchema(schema)(prototype, method, descriptor);
      RoutePolicy({ operation: true })(prototype, method, descriptor);
      documentStandardAnswers(controller, method, schema);
    }
  };
}

/** The names of a controller's route handlers: its own methods that a route decorator (`@Get()`, `@Post()`…) marked. */
export function routeHandlerNames(controller: Type): string[] {
  const prototype = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(prototype).filter((method) => {
    const handler = prototype[method];
    return typeof handler === 'function' && Reflect.getMetadata(METHOD_METADATA, handler) !== undefined;
  });
}

/** The schema of a handler's route, from its declarations; a declaration the service cannot check stops the start, naming the fix. */
export function routeSchemaOf(controller: Type, method: string): RouteSchemas {
  const name = `${controller.name}.${method}`;
  const inputs = inputsOf(controller, method, name);
  const params = inputs.get(RouteParamtypes.PARAM);
  const body = inputs.get(RouteParamtypes.BODY);
  const response = answerSchemasOf((controller.prototype as Record<string, object>)[method], name);
  return {
    ...(params && { params: parametersSchema(params) }),
    querystring: parametersSchema(inputs.get(RouteParamtypes.QUERY)),
    ...(body && { body: bodySchema(body) }),
    ...(Object.keys(response).length > 0 && { response }),
  };
}

/** The DTO each checked input kind is taken as; an input the route would not check stops the start. */
function inputsOf(controller: Type, method: string, name: string): Map<RouteParamtypes, Type> {
  const types = (Reflect.getMetadata(PARAMTYPES_METADATA, controller.prototype as object, method) ?? []) as unknown[];
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, { index: number; data?: unknown }>;
  const inputs = new Map<RouteParamtypes, Type>();
  for (const [key, { index, data }] of Object.entries(args)) {
    const kind = Number(key.split(':')[0]) as RouteParamtypes;
    if (WHOLE_REQUEST.has(kind)) {
      throw new Error(
        `${name}: takes the whole request or reply (@Req(), @Res(), @Next()), whose use no one can see from the route; ` +
          'take what it needs by a parameter decorator (@Principal(), @RouteUrl(), @AnswerHeaders(), or one of its own)',
      );
    }
    if (kind === RouteParamtypes.HEADERS) {
      throw new Error(
        `${name}: a header read with @Headers() is neither checked nor documented as the service reads it; ` +
          'declare it with a parameter decorator of its own (as @IdempotencyKey()) that documents and checks it',
      );
    }
    const what = INPUT_DECORATORS.get(kind);
    if (what === undefined) continue;
    const dto = types[index] as Type;
    const isClass = typeof dto === 'function' && !isBuiltIn(dto);
    if (data === undefined && isClass) assertApiModel(dto, name);
    if (data !== undefined || !isClass || documentedKeysOf(dto).length === 0) {
      throw new Error(
        `${name}: its ${what} is not checked: take the whole ${what} as one DTO class (${what}() dto: SomeDto), ` +
          'whose properties carry class-validator rules or @ApiProperty',
      );
    }
    inputs.set(kind, dto);
  }
  return inputs;
}

const WHOLE_REQUEST = new Set([RouteParamtypes.REQUEST, RouteParamtypes.RESPONSE, RouteParamtypes.NEXT]);

const INPUT_DECORATORS = new Map<RouteParamtypes, string>([
  [RouteParamtypes.PARAM, '@Param'],
  [RouteParamtypes.QUERY, '@Query'],
  [RouteParamtypes.BODY, '@Body'],
]);

// What TypeScript names as the type of an interface, a union or a primitive: Object, String, Number…
function isBuiltIn(type: Type): boolean {
  return (globalThis as Record<string, unknown>)[type.name] === type;
}

// Its rules are in its ApiProperty options only if it says so where it is declared.
function assertApiModel(dto: Type, name: string): void {
  if (!isApiModel(dto)) {
    throw new Error(
      `${name}: ${dto.name} documents no rules: declare the class @ApiModel() (@petstore/http), which documents its class-validator rules`,
    );
  }
}

function documentedKeysOf(dto: Type): string[] {
  const keys = (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, dto.prototype as object) ?? []) as string[];
  return keys.map((key) => key.replace(/^:/, ''));
}

function documentedProperty(dto: Type, key: string): DocumentedProperty {
  return Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, dto.prototype as object, key) as DocumentedProperty;
}

/** The property as a JSON Schema of one type; an option that would change what is accepted but is not checked stops the start. */
function checkedSchemaOf(dto: Type, key: string): SchemaObject {
  const { type, isArray, ...documented } = documentedProperty(dto, key);
  const property = withoutRequired(documented);
  const unchecked = Object.keys(property).filter((option) => !DESCRIBING.has(option) && !CHECKED.has(option));
  if (isArray || unchecked.length > 0) {
    throw new Error(
      `${dto.name}.${key}: @ApiProperty's ${isArray ? 'isArray' : unchecked.join(', ')} would be documented but not checked; ` +
        'remove it, or teach route-schemas.ts to check it',
    );
  }
  const values = property.enum as unknown[] | undefined;
  const named = TYPE_OF_CONSTRUCTOR.get(type) ?? (typeof type === 'string' ? type : undefined);
  const typeOf = named ?? (values?.every((value) => typeof value === 'string') ? 'string' : undefined);
  if (typeOf === undefined) {
    throw new Error(
      `${dto.name}.${key}: its type is no input route-schemas.ts checks yet; teach its inputSchema the rules and their messages`,
    );
  }
  return { ...property, type: typeOf };
}

// Whether a property is required is the object's to say (isRequired), not the property's schema's.
function withoutRequired<T extends { required?: unknown }>({ required: _required, ...rest }: T): Omit<T, 'required'> {
  return rest;
}

function isRequired(dto: Type, key: string): boolean {
  return documentedProperty(dto, key).required !== false;
}

// Closed: an unknown parameter is refused, naming those the operation takes (docs/decisions/0003).
function parametersSchema(dto: Type | undefined): object {
  const names = dto ? documentedKeysOf(dto) : [];
  return objectSchema(
    names.map((key) => [key, inputSchema(key, checkedSchemaOf(dto as Type, key), true)]),
    names.filter((key) => isRequired(dto as Type, key)),
    '',
    { additionalProperties: names.length > 0 ? `the query takes only ${names.join(', ')}` : 'this operation takes no query parameters' },
  );
}

function bodySchema(dto: Type): object {
  const keys = documentedKeysOf(dto);
  const properties = keys.map((key) => [key, inputSchema(key, checkedSchemaOf(dto, key), false)] as [string, object]);
  return objectSchema(
    properties,
    keys.filter((key) => isRequired(dto, key)),
    '',
    { type: 'Request body must be a JSON object', additionalProperties: `the body takes only ${keys.join(', ')}` },
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
function inputSchema(path: string, schema: SchemaObject, text: boolean): object {
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
  throw new Error(
    `${path}: ${String(schema.type)} is no input route-schemas.ts checks yet; teach its inputSchema the rules and their messages`,
  );
}

function meansOf(value: object): string | undefined {
  return (value as { [PATTERN_MEANS]?: string })[PATTERN_MEANS];
}

function integerDescription(integer: ExactInteger): string {
  if (integer.minimum === undefined && integer.maximum === undefined)
    return integer.format === 'int64' ? 'a 64-bit integer' : 'a 32-bit integer';
  const { min, max } = integerBounds(integer);
  return `an integer from ${min} to ${max}`;
}

function lengthDescription(minLength?: number, maxLength?: number): string {
  if (maxLength === undefined) return `at least ${minLength} characters long`;
  return minLength === undefined ? `at most ${maxLength} characters long` : `${minLength} to ${maxLength} characters long`;
}

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]])) as Partial<Pick<T, K>>;
}

interface DocumentedAnswer {
  readonly type?: unknown;
  readonly isArray?: boolean;
  readonly schema?: SchemaObject & { readonly items?: { readonly $ref?: string } };
}

/** The 2xx answers' serialization schemas, from the DTO each `ApiResponse` names (as a type, or as the items of an array's schema). */
function answerSchemasOf(handler: object, name: string): Record<number, object> {
  const answers = (Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) ?? {}) as Record<string, DocumentedAnswer>;
  const models = (Reflect.getMetadata(DECORATORS.API_EXTRA_MODELS, handler) ?? []) as Type[];
  const schemas: Record<number, object> = {};
  for (const [status, answer] of Object.entries(answers)) {
    if (!/^2\d\d$/.test(status) || status === '204') continue;
    const listed = answer.schema?.type === 'array' ? modelNamed(models, answer.schema.items?.$ref, name) : undefined;
    const dto = (listed ?? answer.type) as Type | undefined;
    if (typeof dto !== 'function') throw new Error(`${name}: its ${status} answer names no DTO class; give its ApiResponse a type`);
    assertApiModel(dto, name);
    const item = serializationSchema(dto);
    schemas[Number(status)] = listed || answer.isArray ? { type: 'array', items: item } : item;
  }
  return schemas;
}

function modelNamed(models: readonly Type[], ref: string | undefined, name: string): Type {
  const wanted = ref?.split('/').pop();
  const model = models.find((candidate) => schemaNameOf(candidate) === wanted);
  if (!model) throw new Error(`${name}: its answer's items (${ref}) are no class of its ApiExtraModels; add it there`);
  return model;
}

function schemaNameOf(dto: Type): string {
  return (Reflect.getMetadata(DECORATORS.API_SCHEMA, dto) as Array<{ name?: string }> | undefined)?.[0]?.name ?? dto.name;
}

// What fast-json-stringify needs: types, properties, required; a field missing from the schema is never written.
function serializationSchema(dto: Type): object {
  const keys = documentedKeysOf(dto);
  const properties = keys.map((key) => [key, { type: checkedSchemaOf(dto, key).type }] as const);
  return { type: 'object', properties: Object.fromEntries(properties), required: keys.filter((key) => isRequired(dto, key)) };
}
