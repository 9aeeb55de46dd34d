// Where the JSON bodies of an OpenAPI 3.x document hold int64 numbers: the table the typed client
// (libs/client) reads to parse exactly those numbers as bigint. The shapes are those of
// libs/client/src/lib/exact-json.ts; the generated file is typechecked against them.

/** A schema object, or a reference to one, as JSON. */
export interface Schema {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly format?: string;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly items?: Schema;
  readonly additionalProperties?: Schema | boolean;
  readonly allOf?: readonly Schema[];
  readonly anyOf?: readonly Schema[];
  readonly oneOf?: readonly Schema[];
}

interface Response {
  readonly $ref?: string;
  readonly content?: Readonly<Record<string, { readonly schema?: Schema }>>;
}

export interface Document {
  readonly paths?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly components?: { readonly schemas?: Readonly<Record<string, Schema>>; readonly responses?: Readonly<Record<string, Response>> };
}

export type Int64Shape =
  | 'int64'
  | { readonly $ref: string }
  | { readonly anyOf: readonly Int64Shape[] }
  | { properties?: Record<string, Int64Shape>; items?: Int64Shape; additionalProperties?: Int64Shape };

export interface Int64Locations {
  readonly schemas: Record<string, Int64Shape>;
  readonly responses: Record<string, Record<string, Int64Shape>>;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;
const RESPONSE_REF = /^#\/components\/responses\/([^/]+)$/;
/** application/json and its structured-syntax relatives (application/problem+json…): the bodies openapi-fetch parses. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json$/i;

/**
 * Whether a schema describes an int64 integer. OpenAPI 3.1 type lists (`["integer", "null"]`)
 * count: the integers among their values are int64.
 */
export function isInt64(schema: Schema): boolean {
  const integer = schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer'));
  return integer && schema.format === 'int64';
}

/** The int64 locations of every JSON response body of the document, and of the component schemas they reference. */
export function int64Locations(document: Document): Int64Locations {
  const components = document.components?.schemas ?? {};
  const holders = componentsHoldingInt64(components);
  const shapeOf = (schema: Schema | undefined): Int64Shape | undefined => shapeOfSchema(schema, holders);
  const responses: Record<string, Record<string, Int64Shape>> = {};
  for (const [path, pathItem] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS.filter((name) => Object.hasOwn(pathItem, name))) {
      const operation = pathItem[method] as { responses?: Record<string, Response> };
      const byStatus = responseShapes(operation.responses ?? {}, document, shapeOf);
      if (Object.keys(byStatus).length > 0) responses[`${method.toUpperCase()} ${path}`] = byStatus;
    }
  }
  return { schemas: referencedSchemas(responses, components, shapeOf), responses };
}

/** The shapes of the component schemas the response shapes reference, directly or through one another, in document order. */
function referencedSchemas(
  responses: Readonly<Record<string, Readonly<Record<string, Int64Shape>>>>,
  components: Readonly<Record<string, Schema>>,
  shapeOf: (schema: Schema | undefined) => Int64Shape | undefined,
): Record<string, Int64Shape> {
  const shapes = new Map<string, Int64Shape>();
  const pending = Object.values(responses).flatMap((byStatus) => Object.values(byStatus).flatMap(referencesOf));
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (shapes.has(name)) continue;
    const shape = shapeOf(components[name]);
    if (shape === undefined) continue;
    shapes.set(name, shape);
    pending.push(...referencesOf(shape));
  }
  const inDocumentOrder: Record<string, Int64Shape> = {};
  for (const name of Object.keys(components)) {
    const shape = shapes.get(name);
    if (shape !== undefined) inDocumentOrder[name] = shape;
  }
  return inDocumentOrder;
}

/** The component names a shape references, without following them. */
function referencesOf(shape: Int64Shape): string[] {
  if (shape === 'int64') return [];
  if ('$ref' in shape) return [shape.$ref];
  if ('anyOf' in shape) return shape.anyOf.flatMap(referencesOf);
  const children = [...Object.values(shape.properties ?? {}), shape.items, shape.additionalProperties];
  return children.flatMap((child) => (child === undefined ? [] : referencesOf(child)));
}

/**
 * The shapes of an operation's responses that hold int64, by status. A response without int64
 * is listed too (as `{}`) when a broader key of the same operation (its `4XX`, or `default`)
 * holds int64: the client looks the most precise key up first and must not fall through to it.
 */
function responseShapes(
  responses: Readonly<Record<string, Response>>,
  document: Document,
  shapeOf: (schema: Schema | undefined) => Int64Shape | undefined,
): Record<string, Int64Shape> {
  const shapes = new Map<string, Int64Shape | undefined>();
  for (const [status, response] of Object.entries(responses)) {
    const { content = {} } = resolveResponse(response, document);
    const json = Object.entries(content).filter(([mediaType]) => JSON_MEDIA_TYPE.test(mediaType.split(';')[0].trim()));
    shapes.set(status, merge(json.map(([, media]) => shapeOf(media.schema))));
  }
  const byStatus: Record<string, Int64Shape> = {};
  for (const [status, shape] of shapes) {
    if (shape !== undefined) byStatus[status] = shape;
    else if (broaderKeys(status).some((key) => shapes.get(key) !== undefined)) byStatus[status] = {};
  }
  return byStatus;
}

/** The response keys a status key falls back to: `404` to `4XX` then `default`, `4XX` to `default`. */
function broaderKeys(status: string): string[] {
  if (/^\d{3}$/.test(status)) return [`${status[0]}XX`, 'default'];
  return status === 'default' ? [] : ['default'];
}

function resolveResponse(response: Response, document: Document): Response {
  if (response.$ref === undefined) return response;
  const name = RESPONSE_REF.exec(response.$ref)?.[1];
  const target = name === undefined ? undefined : document.components?.responses?.[unescapePointer(name)];
  if (target === undefined) throw new Error(`int64 locations: cannot resolve the response ${response.$ref}`);
  return resolveResponse(target, document);
}

/**
 * The shape of a schema; undefined when it holds no int64. References to component schemas
 * stay references (cycles are fine), to those holding int64 only.
 */
function shapeOfSchema(schema: Schema | undefined, holders: ReadonlySet<string>): Int64Shape | undefined {
  if (schema === undefined) return undefined;
  const shapeOf = (child: Schema | boolean | undefined) => (typeof child === 'object' ? shapeOfSchema(child, holders) : undefined);
  if (schema.$ref !== undefined) {
    const name = componentName(schema.$ref);
    return holders.has(name) ? { $ref: name } : undefined;
  }
  if (isInt64(schema)) {
    // A literal type (`1 | 2`) would be a number in the generated types while the client reads a bigint.
    if (schema.enum !== undefined || schema.const !== undefined) {
      throw new Error('int64 locations: an int64 enum or const is not supported');
    }
    return 'int64';
  }
  const container: { properties?: Record<string, Int64Shape>; items?: Int64Shape; additionalProperties?: Int64Shape } = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const shape = shapeOf(property);
    if (shape !== undefined) (container.properties ??= {})[name] = shape;
  }
  const items = shapeOf(schema.items);
  if (items !== undefined) container.items = items;
  const additional = shapeOf(schema.additionalProperties);
  if (additional !== undefined) container.additionalProperties = additional;
  const branches = [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].map(shapeOf);
  return merge([Object.keys(container).length > 0 ? container : undefined, ...branches]);
}

/** One shape for several that apply to the same value; undefined when none holds int64. */
function merge(shapes: ReadonlyArray<Int64Shape | undefined>): Int64Shape | undefined {
  const holding = shapes.filter((shape): shape is Int64Shape => shape !== undefined);
  if (holding.length <= 1) return holding[0];
  return { anyOf: holding };
}

/** The component schemas that hold an int64 value, themselves or through the components they reference. */
function componentsHoldingInt64(components: Readonly<Record<string, Schema>>): ReadonlySet<string> {
  const direct = new Set<string>();
  const referencedBy = new Map<string, string[]>();
  for (const [name, schema] of Object.entries(components)) {
    const refs = new Set<string>();
    if (walkSchema(schema, refs)) direct.add(name);
    for (const ref of refs) referencedBy.set(ref, [...(referencedBy.get(ref) ?? []), name]);
  }
  // Whatever references a holder holds int64 too: spread backwards along the references.
  const holders = new Set(direct);
  const pending = [...direct];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    for (const referrer of referencedBy.get(name) ?? []) {
      if (holders.has(referrer)) continue;
      holders.add(referrer);
      pending.push(referrer);
    }
  }
  return holders;
}

/** Whether a schema holds an int64 value without following references; collects the components it references. */
function walkSchema(schema: Schema, refs: Set<string>): boolean {
  if (schema.$ref !== undefined) {
    refs.add(componentName(schema.$ref));
    return false;
  }
  const children = [
    ...Object.values(schema.properties ?? {}),
    ...[schema.items, schema.additionalProperties].filter((child): child is Schema => typeof child === 'object'),
    ...(schema.allOf ?? []),
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
  ];
  // Every child is walked (no short cut), so that every reference is collected.
  return children.map((child) => walkSchema(child, refs)).some(Boolean) || isInt64(schema);
}

function componentName(ref: string): string {
  const name = SCHEMA_REF.exec(ref)?.[1];
  if (name === undefined) throw new Error(`int64 locations: only references to #/components/schemas are supported, not ${ref}`);
  return unescapePointer(name);
}

/** A JSON pointer segment's text (RFC 6901: ~1 is "/", ~0 is "~"). */
function unescapePointer(segment: string): string {
  return decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');
}
