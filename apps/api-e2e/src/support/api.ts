import { expectDocumentedResponse } from './contract';
import type { E2eTarget } from './server';
import { AUTH } from './server';

declare const e2eTarget: E2eTarget;

/** The database this test file runs against. */
export const target: E2eTarget = e2eTarget;

/**
 * The describe of tests that are about some targets only; on the others they are skipped and start
 * nothing. What does not depend on the database runs on the embedded one alone (npm test's target).
 */
export function describeOn(...targets: readonly E2eTarget[]): jest.Describe {
  return targets.includes(target) ? describe : describe.skip;
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
  options: { headers?: Record<string, string>; body?: string; json?: unknown; auth?: boolean; contract?: boolean } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...(options.auth === false ? {} : AUTH), ...options.headers };
  let body = options.body;
  if (options.json !== undefined) {
    body = typeof options.json === 'string' ? options.json : JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl()}${path}`, { method, headers, body });
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
