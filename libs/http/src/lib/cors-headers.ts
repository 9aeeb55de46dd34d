import type { OpenAPIObject, ParameterObject, ReferenceObject, ResponseObject } from '@nestjs/swagger';

/** The headers a browser client of another origin may send (allowed) and read (exposed). */
export interface CorsHeaders {
  readonly allowedHeaders: readonly string[];
  readonly exposedHeaders: readonly string[];
}

const REQUEST_ID_HEADER = 'X-Request-Id';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;

type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;
type Components = NonNullable<OpenAPIObject['components']>;

/** What CORS lets a browser send and read, from the served document so no header is listed by hand; X-Request-Id both ways. */
export function corsHeadersOf(document: OpenAPIObject): CorsHeaders {
  const components = document.components ?? {};
  const allowed = [REQUEST_ID_HEADER, ...schemeHeaders(components)];
  const exposed = [REQUEST_ID_HEADER];
  for (const item of Object.values(document.paths)) {
    const operations = HTTP_METHODS.map((method) => item[method]).filter((operation): operation is Operation => operation !== undefined);
    for (const parameter of [...(item.parameters ?? []), ...operations.flatMap((operation) => operation.parameters ?? [])]) {
      const { in: location, name } = resolve<ParameterObject>(parameter, components);
      if (location === 'header') allowed.push(name);
    }
    for (const operation of operations) {
      if (operation.requestBody) allowed.push('Content-Type');
      for (const answer of Object.values(operation.responses ?? {})) {
        if (answer) exposed.push(...Object.keys(resolve<ResponseObject>(answer, components).headers ?? {}));
      }
    }
  }
  return { allowedHeaders: sortedOnce(allowed), exposedHeaders: sortedOnce(exposed) };
}

function schemeHeaders(components: Components): string[] {
  return Object.values(components.securitySchemes ?? {}).flatMap((scheme) => {
    if ('$ref' in scheme) return [];
    if (scheme.type === 'http') return ['Authorization'];
    if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name) return [scheme.name];
    return [];
  });
}

/** Header names once each, whatever their case (the first spelling kept), sorted. */
function sortedOnce(names: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const name of names) if (!byKey.has(name.toLowerCase())) byKey.set(name.toLowerCase(), name);
  return [...byKey.keys()].sort().map((key) => byKey.get(key) as string);
}

function resolve<T extends object>(value: T | ReferenceObject, components: Components): T {
  if (!('$ref' in value)) return value;
  const [, , section, name] = value.$ref.split('/');
  const target = (components as Record<string, Record<string, T> | undefined>)[section]?.[name];
  if (!target) throw new Error(`The document has no ${value.$ref}`);
  return target;
}
