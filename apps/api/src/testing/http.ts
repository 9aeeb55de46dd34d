import { createPetstoreClient, type PetstoreClient } from '@petstore/client';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { ContractChecker } from './contract';
import { AUTH, type InProcessApp, TEST_API_KEY } from './in-process-app';

// Requests to the in-process app through Fastify's inject, each answer of a documented operation
// checked against the committed document (ContractChecker), as the e2e suite's `call` does over HTTP.

export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON (numbers as JavaScript numbers; use `text` for exact int64 digits). */
  readonly body: unknown;
}

export interface CallOptions {
  readonly headers?: Record<string, string | string[]>;
  /** Sent as is: text, or bytes that need not be UTF-8. */
  readonly body?: string | Buffer;
  /** Sent as is when a string, JSON-encoded otherwise; Content-Type application/json unless given. */
  readonly json?: unknown;
  /** false: no Authorization header. */
  readonly auth?: boolean;
  /** false: the answer is not checked against the document (e.g. what the router answers by itself). */
  readonly contract?: boolean;
  /** The client address (default 127.0.0.1). */
  readonly remoteAddress?: string;
}

const checker = new ContractChecker();

/** Fastify's answer headers as a fetch Headers (a repeated header's values joined). */
export function headersOf(response: Pick<LightMyRequestResponse, 'headers'>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) headers.append(name, String(item));
  }
  return headers;
}

function parsed(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** One request to the in-process app, checked against the document unless `contract` is false. */
export async function call(petstore: InProcessApp, method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string | string[]> = { ...(options.auth === false ? {} : AUTH), ...options.headers };
  let payload = options.body;
  if (options.json !== undefined) {
    payload = typeof options.json === 'string' ? options.json : JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const request: InjectOptions = {
    method,
    url: path,
    headers,
    payload,
    remoteAddress: options.remoteAddress,
  };
  const response = await petstore.fastify.inject(request);
  const answer = { status: response.statusCode, headers: headersOf(response), text: response.body, body: parsed(response.body) };
  if (options.contract !== false) checker.expectDocumented(method, path, answer.status, answer.headers, answer.body);
  return answer;
}

/** Asserts an Error body with this status and code, served as JSON. */
export function expectError(response: ApiResponse, status: number, code: string): void {
  expect({ status: response.status, body: response.body }).toEqual({ status, body: { code, message: expect.any(String), status } });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
}

/**
 * A fetch that answers from the in-process app through inject: the typed client (openapi-fetch)
 * talks to the real application with no socket. The request's URL gives the path and query.
 */
export function injectFetch(fastify: FastifyInstance): typeof fetch {
  return async (input: string | URL | Request, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const response = await fastify.inject({
      method: request.method as InjectOptions['method'],
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
      payload: body,
    });
    const empty = request.method === 'HEAD' || [204, 304].includes(response.statusCode);
    return new Response(empty ? null : response.rawPayload, { status: response.statusCode, headers: headersOf(response) });
  };
}

/**
 * The typed client generated from the committed document, on the in-process app (through
 * `fetch`, injectFetch by default), every answer checked against the document.
 */
export function client(petstore: InProcessApp, fetch: typeof globalThis.fetch = injectFetch(petstore.fastify)): PetstoreClient {
  const petstoreClient = createPetstoreClient('http://in-process/v1', TEST_API_KEY, { fetch });
  petstoreClient.use({
    async onResponse({ request, response }) {
      const text = await response.clone().text();
      const url = new URL(request.url);
      checker.expectDocumented(request.method, `${url.pathname}${url.search}`, response.status, response.headers, parsed(text));
    },
  });
  return petstoreClient;
}

/** A pet as the list gives it, parsed with JavaScript numbers (use `text` for int64 digits). */
export interface ListedPet {
  readonly id: number;
  readonly name: string;
  readonly categoryId: number;
  readonly status: string;
}

/** The target of a page's `Link: <…>; rel="next"`, if it has one. */
export function nextLink(response: ApiResponse): string | undefined {
  return /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1];
}

/** Every pet whose id is greater than `after`, following the `next` links from pages of 100 (with `query`, e.g. `status=sold`). */
export async function petsAfter(petstore: InProcessApp, after: bigint | number, query = ''): Promise<ListedPet[]> {
  const pets: ListedPet[] = [];
  let path: string | undefined = `/v1/pets?limit=100${query ? `&${query}` : ''}&after=${after}`;
  while (path) {
    const response = await call(petstore, 'GET', path);
    expect(response.status).toBe(200);
    pets.push(...(response.body as ListedPet[]));
    path = nextLink(response);
  }
  return pets;
}

export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;

/** Asserts that no pet has this id now, by listing from the id before it (pets come in ascending id order). */
export async function expectNoPetWithId(petstore: InProcessApp, id: bigint): Promise<void> {
  const query = id > INT64_MIN ? `?limit=1&after=${id - 1n}` : '?limit=1';
  const { status, text } = await call(petstore, 'GET', `/v1/pets${query}`);
  expect(status).toBe(200);
  const first = /^\[\{"id":(-?\d+)/.exec(text)?.[1];
  expect({ petWithId: id, exists: first !== undefined && BigInt(first) === id }).toEqual({ petWithId: id, exists: false });
}
