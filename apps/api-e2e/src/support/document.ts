import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// The committed OpenAPI document as the e2e suite reads it (the file: e2e tests import no project
// but the client): the one list of the operations. A test that needs "every operation" takes it here.

export interface DocumentedOperation {
  /** Upper case, as on the wire. */
  readonly method: string;
  /** The path template under the base path, e.g. /v1/pets/{petId}. */
  readonly path: string;
  readonly operationId: string;
  /** Its first tag: Swagger UI groups operations by it. */
  readonly tag: string;
  readonly parameters: ReadonlyArray<{ name: string; in: string; example?: string | number; schema?: { example?: string | number } }>;
  /** The first example of its JSON body, as text, if it takes one. */
  readonly bodyExample?: string;
}

interface Document {
  readonly servers: ReadonlyArray<{ url: string }>;
  readonly paths: Record<string, Record<string, Record<string, unknown>>>;
}

export const DOCUMENT_FILE = resolve(__dirname, '../../../../openapi/petstore.openapi.json');
export const document = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as Document;
/** The path the document's paths are relative to, e.g. /v1. */
export const basePath = new URL(document.servers[0].url).pathname.replace(/\/$/, '');

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'];

/** Every operation of the committed document, in its order. */
export const operations: readonly DocumentedOperation[] = Object.entries(document.paths).flatMap(([path, item]) =>
  METHODS.filter((method) => item[method]).map((method) => {
    const operation = item[method] as {
      operationId?: string;
      tags?: string[];
      parameters?: DocumentedOperation['parameters'];
      requestBody?: { content?: Record<string, { examples?: Record<string, { value: unknown }> }> };
    };
    const example = Object.values(operation.requestBody?.content?.['application/json']?.examples ?? {})[0]?.value;
    return {
      method: method.toUpperCase(),
      path: `${basePath}${path}`,
      operationId: operation.operationId ?? '',
      tag: operation.tags?.[0] ?? 'default',
      parameters: operation.parameters ?? [],
      bodyExample: example === undefined ? undefined : JSON.stringify(example),
    };
  }),
);

/** The operation's URL with `values` (or the examples) in its path parameters. */
export function urlOf(operation: DocumentedOperation, values: Record<string, string> = {}): string {
  return operation.parameters
    .filter((parameter) => parameter.in === 'path')
    .reduce(
      (url, parameter) =>
        url.replace(`{${parameter.name}}`, values[parameter.name] ?? String(parameter.example ?? parameter.schema?.example ?? '1')),
      operation.path,
    );
}
