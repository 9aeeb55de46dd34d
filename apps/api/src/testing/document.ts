import type { OpenAPIObject } from '@nestjs/swagger';
import Ajv, { type ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// The committed OpenAPI document as the in-process tests read it: the one list of the operations
// and of the answers each may give. A test that needs "every operation" takes it from here.

export const COMMITTED_DOCUMENT_FILE = resolve(__dirname, '../../../../openapi/petstore.openapi.json');

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;

/** The methods a route can serve, in the order an Allow header lists them (OPTIONS is CORS's). */
export const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;

export interface DocumentedOperation {
  /** Upper case, as on the wire. */
  readonly method: string;
  /** The document's path template, relative to its server (e.g. /pets/{petId}). */
  readonly path: string;
  readonly operationId: string;
  readonly operation: Operation;
}

export function committedDocument(): OpenAPIObject {
  return JSON.parse(readFileSync(COMMITTED_DOCUMENT_FILE, 'utf8')) as OpenAPIObject;
}

/** Every operation of a document, in its order. */
export function operationsOf(document: OpenAPIObject): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ method: method.toUpperCase(), path, operationId: operation.operationId ?? '', operation }] : [];
    }),
  );
}

/**
 * What of the live document (the code's) the committed one lacks or states otherwise, one line per
 * operation, each naming the fix; empty when they agree.
 */
export function driftFromCommitted(live: OpenAPIObject, committed: OpenAPIObject): string[] {
  const committedOperations = new Map(operationsOf(committed).map((entry) => [`${entry.method} ${entry.path}`, entry]));
  const problems: string[] = [];
  for (const { method, path, operationId, operation } of operationsOf(live)) {
    const kept = committedOperations.get(`${method} ${path}`);
    if (!kept) problems.push(`${method} ${path} (${operationId}) is in the code but not in the committed document: run npm run openapi`);
    else if (JSON.stringify(kept.operation) !== JSON.stringify(operation)) {
      problems.push(`${method} ${path} (${operationId}) differs from the committed document: run npm run openapi`);
    }
  }
  for (const key of committedOperations.keys()) {
    if (!operationsOf(live).some((entry) => `${entry.method} ${entry.path}` === key)) {
      problems.push(`${key} is in the committed document but not in the code: run npm run openapi`);
    }
  }
  return problems;
}

/** Validates answers against the schemas of a document's responses (OpenAPI 3.0's `example` and formats ignored). */
export class ResponseValidator {
  private readonly ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(document: OpenAPIObject) {
    this.ajv.addSchema({ ...document, $id: 'openapi' });
  }

  /**
   * Why a JSON body does not match the documented answer, or undefined when it does. An answer
   * documented without JSON content (a 204) matches only no body at all.
   */
  bodyProblem({ method, path, operation }: DocumentedOperation, status: number, body: unknown): string | undefined {
    const answer = operation.responses[String(status)] as { content?: Record<string, unknown> } | undefined;
    if (!answer?.content?.['application/json'])
      return body === undefined ? undefined : `a body was sent where the document has none: ${JSON.stringify(body)}`;
    const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');
    const pointer = `/paths/${escape(path)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi#${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate(body) ? undefined : this.ajv.errorsText(validate.errors);
  }
}

/**
 * The methods the document's operations serve (of one path, or of all), HEAD with GET, in the
 * order of ROUTE_METHODS: what a 405's Allow and CORS's allowed methods say.
 */
export function servedMethods(document: OpenAPIObject, path?: string): string[] {
  const methods = operationsOf(document)
    .filter((entry) => path === undefined || entry.path === path)
    .map((entry) => entry.method);
  return ROUTE_METHODS.filter((method) => methods.includes(method) || (method === 'HEAD' && methods.includes('GET')));
}

type Parameter = { name: string; in: string; schema?: { example?: string | number }; example?: string | number };

/** The parameters of an operation (the document writes none with a $ref). */
export const parametersOf = ({ operation }: DocumentedOperation) => (operation.parameters ?? []) as Parameter[];

/** A parameter's example, as text. */
export const exampleOf = (parameter: Parameter) => String(parameter.example ?? parameter.schema?.example ?? '');

/** The first example of the operation's JSON request body, if it takes one. */
export function bodyExampleOf({ operation }: DocumentedOperation): unknown {
  const content = (operation.requestBody as { content?: Record<string, { examples?: Record<string, { value: unknown }> }> } | undefined)
    ?.content?.['application/json'];
  if (!content) return undefined;
  const [example] = Object.values(content.examples ?? {});
  if (example === undefined) {
    throw new Error(
      `${operation.operationId ?? 'An operation'} takes a body but documents no example of it: give its @ApiBody() one ` +
        "(examples: the tests that walk every operation send it, as Swagger UI's Try it out does)",
    );
  }
  return example.value;
}

/** The document's base path (its first server's path, e.g. /v1): what the paths are relative to. */
export function basePathOf(document: OpenAPIObject): string {
  return new URL(document.servers?.[0]?.url ?? 'http://x/').pathname.replace(/\/$/, '');
}

/**
 * The operation's documented example request: the URL (under the base path) with `path` values or
 * the examples in its path parameters, and the body's example as JSON text, if it takes a body.
 */
export function exampleRequestOf(
  document: OpenAPIObject,
  entry: DocumentedOperation,
  path: Record<string, string> = {},
): { method: string; url: string; body: string | undefined } {
  let url = `${basePathOf(document)}${entry.path}`;
  for (const parameter of parametersOf(entry).filter((p) => p.in === 'path')) {
    url = url.replace(`{${parameter.name}}`, path[parameter.name] ?? exampleOf(parameter));
  }
  const body = bodyExampleOf(entry);
  return { method: entry.method, url, body: body === undefined ? undefined : JSON.stringify(body) };
}
