import { randomInt, randomUUID } from 'node:crypto';
import { createPetstoreClient, type PetstoreClient, type PetStatus } from '@petstore/client';
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
  const prism = process.env[`E2E_PRISM_URL_${target}`];
  return prism && !raw && path.startsWith('/v1/') ? `${prism}${path.slice('/v1'.length)}` : `${baseUrl()}${path}`;
}

/** Base URL of the shared server of this target. */
export function baseUrl(): string {
  const url = process.env[`E2E_URL_${target}`];
  if (!url) throw new Error(`No e2e server for ${target}`);
  return url;
}

/**
 * The instances behind the shared URL: the pooled target's two, between which its load balancer
 * alternates connections (each keeps its own metrics); the shared server alone on the others.
 */
export function instanceUrls(): string[] {
  return process.env[`E2E_INSTANCES_${target}`]?.split(',') ?? [baseUrl()];
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

/**
 * The typed client generated from the OpenAPI document, with every answer checked against it.
 * Through Prism when it validates the run, unless `exact`: Prism re-encodes JSON with JavaScript
 * numbers, so int64 values beyond 2^53 must go straight to the service.
 */
export function client(options: { exact?: boolean } = {}): PetstoreClient {
  const prism = options.exact ? undefined : process.env[`E2E_PRISM_URL_${target}`];
  const petstore = createPetstoreClient(prism ?? `${baseUrl()}/v1`, TEST_API_KEY);
  petstore.use({
    async onResponse({ request, response }) {
      const text = await response.clone().text();
      const url = new URL(request.url);
      const path = prism ? `/v1${url.pathname}` : url.pathname;
      expectDocumentedResponse(
        request.method,
        `${path}${url.search}`,
        response.status,
        response.headers,
        text ? JSON.parse(text) : undefined,
      );
    },
  });
  return petstore;
}

const MAX_SAFE_INTEGER = BigInt(Number.MAX_SAFE_INTEGER);

/** Whether a JavaScript number holds this integer exactly (Prism reads JSON numbers into them). */
function isSafeInteger(value: bigint): boolean {
  return value >= -MAX_SAFE_INTEGER && value <= MAX_SAFE_INTEGER;
}

/** Creates a pet through the typed client and returns its id. */
export async function createPet(pet: { name?: string; categoryId?: bigint; status?: PetStatus } = {}): Promise<bigint> {
  const categoryId = pet.categoryId ?? 1n;
  const body = { name: pet.name ?? 'Rex', categoryId, status: pet.status };
  const { data, response } = await client({ exact: !isSafeInteger(categoryId) }).POST('/pets', { body });
  if (!data) throw new Error(`createPet failed: ${response.status}`);
  return data.id;
}

export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;

// Every test owns its data (docs/development.md, "The e2e suite"): other files write to the same server and
// database at the same time, in any order. These helpers give a test names and categories of its
// own, find its own pets, and check, rather than assume, that an id names no pet.

/** A pet's name no other test uses: `label`, then random characters. */
export function uniqueName(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}`;
}

/** A categoryId no other test uses; below 2^53, so that it passes through Prism unrounded. */
export function uniqueCategoryId(): bigint {
  return BigInt(randomInt(1, 2 ** 48 - 1));
}

/** A pet as the list gives it, parsed with JavaScript numbers (use `exact` answers for int64 digits). */
export interface ListedPet {
  readonly id: number;
  readonly name: string;
  readonly categoryId: number;
  readonly status: string;
}

/**
 * Every pet whose id is greater than `after`, following the `next` links from pages of 100 (with
 * `query`, e.g. `status=sold`): the whole rest of the list, which other tests may be adding to.
 */
export async function petsAfter(after: bigint | number, query = ''): Promise<ListedPet[]> {
  const pets: ListedPet[] = [];
  let path: string | undefined = `/v1/pets?limit=100${query ? `&${query}` : ''}&after=${after}`;
  while (path) {
    const response = await call('GET', path);
    expect(response.status).toBe(200);
    pets.push(...(response.body as ListedPet[]));
    path = nextLink(response);
  }
  return pets;
}

/** The target of a page's `Link: <…>; rel="next"`, if it has one. */
export function nextLink(response: ApiResponse): string | undefined {
  return /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1];
}

/**
 * Asserts that no pet has this id now, by listing from the id before it (pets come in ascending
 * id order): a test about an absent pet checks that it is absent rather than assume it. Ids that
 * the service has not reached (INT64_MAX) cannot be taken between this probe and the request.
 */
export async function expectNoPetWithId(id: bigint): Promise<void> {
  const query = id > INT64_MIN ? `?limit=1&after=${id - 1n}` : '?limit=1';
  const { status, text } = await call('GET', `/v1/pets${query}`, { exact: true });
  expect(status).toBe(200);
  const first = /^\[\{"id":(-?\d+)/.exec(text)?.[1];
  expect({ petWithId: id, exists: first !== undefined && BigInt(first) === id }).toEqual({ petWithId: id, exists: false });
}
