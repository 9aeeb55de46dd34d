import { isInteger, isLosslessNumber, parse, stringify } from 'lossless-json';

/** Where a JSON value holds int64 numbers (`anyOf` stands for allOf, anyOf and oneOf alike); written by tools/openapi. */
export type Int64Shape = 'int64' | { readonly $ref: string } | { readonly anyOf: readonly Int64Shape[] } | ContainerShape;

interface ContainerShape {
  readonly properties?: Readonly<Record<string, Int64Shape>>;
  readonly items?: Int64Shape;
  readonly additionalProperties?: Int64Shape;
}

/** The int64 locations of an API's JSON bodies. */
export interface Int64Locations {
  /** Component schemas that hold int64 values, by name (the targets of `$ref`). */
  readonly schemas: Readonly<Record<string, Int64Shape>>;
  /** Response bodies that hold int64 values, by operation (`GET /pets/{petId}`), then status (`200`, `4XX`, `default`). */
  readonly responses: Readonly<Record<string, Readonly<Record<string, Int64Shape>>>>;
}

/** A shape with its references resolved and its alternatives flattened. */
type ConcreteShape = 'int64' | ContainerShape;

type Schemas = Int64Locations['schemas'];

/** JSON.parse, but integers at `shape`'s int64 locations become exact bigints (lossless-json: JSON.parse rounds past 2^53). */
export function parseExactJson(text: string, shape: Int64Shape | undefined, schemas: Schemas): unknown {
  // A repeated key keeps its last value, as with JSON.parse (lossless-json would throw).
  const parsed = parse(text, null, { onDuplicateKey: ({ newValue }) => newValue });
  return revive(parsed, concreteShapes(shape === undefined ? [] : [shape], schemas), schemas);
}

/** JSON text of a value as JSON.stringify writes it, except that a bigint is written as its exact digits (JSON.stringify throws). */
export function stringifyExactJson(value: unknown): string | undefined {
  return stringify(value);
}

function revive(value: unknown, shapes: readonly ConcreteShape[], schemas: Schemas): unknown {
  if (isLosslessNumber(value)) return numberAt(value.value, shapes.includes('int64'));
  if (Array.isArray(value)) {
    const items = childShapes(shapes, (shape) => shape.items, schemas);
    return value.map((item) => revive(item, items, schemas));
  }
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const children = childShapes(shapes, (shape) => propertyShape(shape, key), schemas);
      // `key` is an own property (a "__proto__" key included), so assigning it cannot reach a prototype setter.
      object[key] = revive(object[key], children, schemas);
    }
  }
  return value;
}

function numberAt(digits: string, int64: boolean): number | bigint {
  // A fraction or exponent at an int64 location breaks the contract; it is left as JSON.parse reads it.
  return int64 && isInteger(digits) ? BigInt(digits) : Number(digits);
}

function propertyShape(shape: ContainerShape, key: string): Int64Shape | undefined {
  // Own properties only: a body's "constructor" or "toString" key names no shape.
  return shape.properties && Object.hasOwn(shape.properties, key) ? shape.properties[key] : shape.additionalProperties;
}

function childShapes(
  shapes: readonly ConcreteShape[],
  child: (shape: ContainerShape) => Int64Shape | undefined,
  schemas: Schemas,
): readonly ConcreteShape[] {
  const children: Int64Shape[] = [];
  for (const shape of shapes) {
    const found = shape === 'int64' ? undefined : child(shape);
    if (found !== undefined) children.push(found);
  }
  return children.length === 0 ? [] : concreteShapes(children, schemas);
}

/** Resolves references and flattens alternatives; a schema met twice (a cycle of references) is taken once. */
function concreteShapes(shapes: readonly Int64Shape[], schemas: Schemas): readonly ConcreteShape[] {
  const concrete: ConcreteShape[] = [];
  const seen = new Set<string>();
  const visit = (shape: Int64Shape): void => {
    if (shape === 'int64' || !('$ref' in shape || 'anyOf' in shape)) {
      concrete.push(shape);
    } else if ('anyOf' in shape) {
      shape.anyOf.forEach(visit);
    } else if (!seen.has(shape.$ref)) {
      seen.add(shape.$ref);
      const target = Object.hasOwn(schemas, shape.$ref) ? schemas[shape.$ref] : undefined;
      if (target === undefined) throw new Error(`int64 locations: unknown schema ${shape.$ref}`);
      visit(target);
    }
  };
  shapes.forEach(visit);
  return concrete;
}

/** A response body's shape: its status's, else its class's (`4XX`), else `default`'s, as OpenAPI matches responses. */
export function responseShape(locations: Int64Locations, operation: string, status: number): Int64Shape | undefined {
  const responses = Object.hasOwn(locations.responses, operation) ? locations.responses[operation] : undefined;
  if (!responses) return undefined;
  for (const key of [String(status), `${Math.floor(status / 100)}XX`, 'default']) {
    if (Object.hasOwn(responses, key)) return responses[key];
  }
  return undefined;
}
