import { createPetstoreClient, type PetstoreClient } from '@petstore/client';
import { expectDocumentedResponse } from './contract';
import type { E2eTarget } from './server';
import { AUTH, TEST_API_KEY } from './server';

declare const e2eTarget: E2eTarget;

/** The database this test file runs against. */
export const target: E2eTarget = e2eTarget;

/**
 * Where a request goes: through Prism, when it validates the run, for the /v1 API. Raw
 * requests go straight to the service: a body given as text and answers read as `exact` text
 * (Prism parses and re-encodes JSON, rounding int64 beyond 2^53), and requests outside the contract.
 */
function urlOf(path: string, raw: boolean): string {
  const prism = process.env.E2E_PRISM_URL;
  return prism && !raw && path.startsWith('/v1/') ? `${prism}${path.slice('/v1'.length)}` : `${baseUrl()}${path}`;
}

/** Base URL of the shared server of this target. */
export function baseUrl(): string {
  const url = process.env[`E2E_URL_${target}`];
  if (!url) throw new Error(`No e2e server for ${target}`);
  return url;
}

export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON (numbers as JavaScript numbers; use `text` for exact int64 digits). */
  readonly body: unknown;
}

/** One HTTP request to the shared server; `json` is sent as-is (a string) or JSON-encoded. */
export async function call(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string; json?: unknown; auth?: boolean; contract?: boolean; exact?: boolean } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...(options.auth === false ? {} : AUTH), ...options.headers };
  let body = options.body;
  if (options.json !== undefined) {
    body = typeof options.json === 'string' ? options.json : JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
    const raw = options.body !== undefined || typeof options.json === 'string' || options.contract === false || options.exact === true;
  const response = await fetch(urlOf(path, raw), { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  // Answers Node or the router give before any operation runs (431, 414…) are outside the contract.
  if (options.contract !== false) expectDocumentedResponse(method, path, response.status, response.headers, parsed);
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** Asserts an Error body with this status and code, served as JSON. */
export function expectError(response: ApiResponse, status: number, code: string): void {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: { code, message: expect.any(String), status },
  });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
}

/** The typed client generated from the OpenAPI document, with every answer checked against it. */
export function client(): PetstoreClient {
  const petstore = createPetstoreClient(process.env.E2E_PRISM_URL ?? `${baseUrl()}/v1`, TEST_API_KEY);
  petstore.use({
    async onResponse({ request, response }) {
      const text = await response.clone().text();
      const url = new URL(request.url);
      const path = process.env.E2E_PRISM_URL ? `/v1${url.pathname}` : url.pathname;
      expectDocumentedResponse(request.method, `${path}${url.search}`, response.status, response.headers, text ? JSON.parse(text) : undefined);
    },
  });
  return petstore;
}

/** Creates a pet and returns its id as exact digits. */
export async function createPet(pet: { name?: string; categoryId?: number | string; status?: 'available' | 'pending' | 'sold' } = {}): Promise<string> {
  const name = pet.name ?? 'Rex';
  if (typeof pet.categoryId === 'string') {
    // Beyond 2^53 a JavaScript number would round: write the digits into the JSON as they are.
    const json = `{"name":${JSON.stringify(name)},"categoryId":${pet.categoryId}${pet.status ? `,"status":"${pet.status}"` : ''}}`;
    const response = await call('POST', '/v1/pets', { json });
    if (response.status !== 201) throw new Error(`createPet failed: ${response.status} ${response.text}`);
    return /"id":(\d+)/.exec(response.text)![1];
  }
  const { data, response } = await client().POST('/pets', { body: { name, categoryId: pet.categoryId ?? 1, status: pet.status } });
  if (!data) throw new Error(`createPet failed: ${response.status}`);
  return String(data.id);
}
