import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { apiSurfaceOf } from '../testing/api-surface';
import { committedDocument } from '../testing/document';
import { ALLOWED_ORIGIN, type FuzzRequest, fuzzRequest, wireBytes } from '../testing/fuzz-requests';
import { AUTH, type InProcessApp, startInProcessApp, TEST_API_KEY } from '../testing/in-process-app';
import { type RawExchange, type RawResponse, sendRaw } from '../testing/raw-http';

// Hostile requests (fast-check, raw bytes on a real socket to the in-process app) must each get a
// 5xx-free answer, every error an Error body. FUZZ_RUNS, FUZZ_SEED and FUZZ_ONLY: docs/development.md.

const RUNS = integerOf('FUZZ_RUNS') ?? 1_000;
/** The database the app runs on, for the report. */
const DATABASE = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
const SEED = integerOf('FUZZ_SEED') ?? Math.floor(Math.random() * 0x7fffffff);
const ONLY = process.env.FUZZ_ONLY?.split(',').map(Number);
/** Sockets at a time: enough to overlap the server's I/O, few enough for a shared 2-core machine. */
const CONCURRENCY = 8;
/** A request that gets no answer in this time fails the run rather than stalling it. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Examples shown for each distinct failure. */
const EXAMPLES = 2;

/** The committed OpenAPI document: the operations the requests are made for (apiSurfaceOf). */
const document = committedDocument();
/** The codes an Error body may carry: the document's ErrorCode. */
const DOCUMENTED_CODES: readonly string[] = (document.components?.schemas?.ErrorCode as { enum: string[] }).enum;
/** The statuses each code goes with (docs/contract.md, "Errors"); BAD_REQUEST is "any other malformed request". */
const STATUSES_OF_CODE: Readonly<Record<string, readonly number[]>> = {
  UNAUTHORIZED: [401],
  VALIDATION_FAILED: [400],
  MALFORMED_JSON: [400],
  UNSUPPORTED_MEDIA_TYPE: [415],
  PAYLOAD_TOO_LARGE: [413],
  PET_NOT_FOUND: [404],
  ROUTE_NOT_FOUND: [404],
  METHOD_NOT_ALLOWED: [405],
  RATE_LIMITED: [429],
  BAD_REQUEST: [400, 408, 411, 414, 417, 431],
  SERVICE_UNAVAILABLE: [503],
  INTERNAL_ERROR: [500],
};

interface Outcome {
  readonly index: number;
  readonly request: FuzzRequest;
  readonly exchange: RawExchange;
  /** The rules this answer breaks; empty when it is fine. */
  readonly problems: readonly string[];
}

describe(`fuzzing with hostile requests (${DATABASE})`, () => {
  let petstore: InProcessApp;
  let url: string;

  beforeAll(async () => {
    // Budgets no request runs out of: a sixth of the requests carry bad keys. CORS on, so that
    // preflights are fuzzed too.
    petstore = await startInProcessApp({
      RATE_LIMIT_PER_MINUTE: '1000000',
      RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '1000000',
      CORS_ORIGINS: ALLOWED_ORIGIN,
    });
    url = await petstore.listen();
  });

  afterAll(() => petstore?.close());

  it(
    `answers every request without a 5xx, every error with an Error body (${ONLY ? `requests ${ONLY.join(', ')}` : RUNS} of seed ${SEED})`,
    async () => {
      const started = Date.now();
      const requests = sampledRequests(new URL(url).host);
      const outcomes = await sendAll(requests, url);
      console.log(summary(outcomes, Date.now() - started));
      const failures = outcomes.filter((outcome) => outcome.problems.length > 0);
      if (failures.length > 0) throw new Error(failureReport(failures, outcomes.length));
    },
    60_000 + RUNS * 60,
  );

  it('still serves an authorized GET /v1/pets afterwards', async () => {
    expect((await fetch(`${url}/v1/pets`, { headers: AUTH })).status).toBe(200);
  });
});

function integerOf(variable: string): number | undefined {
  const value = process.env[variable];
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`${variable} must be a non-negative integer, not "${value}"`);
  return Number(value);
}

/** The run's requests: the same for the same seed, whatever the concurrency. */
function sampledRequests(authority: string): { index: number; request: FuzzRequest }[] {
  const count = ONLY ? Math.max(...ONLY) + 1 : RUNS;
  const all = fc
    .sample(fuzzRequest(authority, TEST_API_KEY, apiSurfaceOf(document)), { seed: SEED, numRuns: count })
    .map((request, index) => ({ index, request }));
  return ONLY ? all.filter(({ index }) => ONLY.includes(index)) : all;
}

/** Sends the requests CONCURRENCY at a time, each on its own connection, and judges each answer. */
async function sendAll(requests: readonly { index: number; request: FuzzRequest }[], url: string): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const { index, request } = requests[next++];
      // Only a request whose framing promises bytes that never come needs the end of the stream to
      // end it; Node takes a half-close for a client gone away, and drops answers still being made.
      const halfClose = request.truncated;
      const exchange = await sendRaw(url, wireBytes(request), { method: request.method, halfClose, timeoutMs: REQUEST_TIMEOUT_MS });
      outcomes.push({ index, request, exchange, problems: problemsOf(request, exchange) });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return outcomes.sort((a, b) => a.index - b.index);
}

// ---------------------------------------------------------------------------------------------
// The rules.

function problemsOf(request: FuzzRequest, exchange: RawExchange): string[] {
  switch (exchange.kind) {
    case 'answered':
      return [...answerProblems(request.method, exchange.response), ...acceptanceProblems(request, exchange.response)];
    case 'closed':
      // Dropping the connection is a fair answer to a broken protocol, and to nothing else.
      return request.violations.length > 0 ? [] : ['no answer to a well-formed request: the connection was closed'];
    case 'malformed':
      return [`a malformed answer: ${exchange.reason}`];
    case 'timed out':
      return [`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`];
    case 'refused':
      return [`the server is gone (${exchange.error})`];
  }
}

function answerProblems(method: string, response: RawResponse): string[] {
  const problems = response.status >= 500 ? ['a 5xx'] : [];
  if (response.status >= 400 && hasBody(method, response.status)) problems.push(...errorBodyProblems(response));
  if (isRedirect(response.status) && response.headers.get('location')?.length !== 1) problems.push('a redirect without one Location');
  return problems;
}

/** A 3xx that sends the client elsewhere (`/` to the docs), as opposed to 304, which sends it back to its copy. */
function isRedirect(status: number): boolean {
  return status >= 300 && status < 400 && status !== 304;
}

/** JSON text is UTF-8 (RFC 8259): bytes that are not must not become a pet, replaced by U+FFFD or otherwise. */
function acceptanceProblems(request: FuzzRequest, response: RawResponse): string[] {
  return response.status === 201 && !isUtf8(request.content) ? ['a pet created from a body that is not UTF-8'] : [];
}

/** Whether HTTP lets this answer carry a body: not one to HEAD, nor a 1xx, 204 or 304. */
function hasBody(method: string, status: number): boolean {
  return method !== 'HEAD' && status >= 200 && status !== 204 && status !== 304;
}

/** An Error body is `{ code, message, status }` exactly, served as application/json, its status the HTTP one. */
function errorBodyProblems(response: RawResponse): string[] {
  const problems: string[] = [];
  const types = response.headers.get('content-type') ?? [];
  if (types.length !== 1 || !/^application\/json\s*(;|$)/i.test(types[0])) problems.push(`Content-Type ${types.join(', ') || 'missing'}`);
  const body = jsonOf(response.body);
  if (body === undefined) return [...problems, response.body.length === 0 ? 'an empty body' : 'a body that is not JSON'];
  if (!isErrorBody(body, response.status)) return [...problems, `a body other than {code, message, status: ${response.status}}`];
  return [...problems, ...codeProblems(body.code, response.status)];
}

/** A code the document does not list, or one that says something else than the status (a 403 BAD_REQUEST). */
function codeProblems(code: string, status: number): string[] {
  if (!DOCUMENTED_CODES.includes(code)) return [`the undocumented code ${code}`];
  const statuses = STATUSES_OF_CODE[code];
  return statuses && !statuses.includes(status) ? [`code ${code} with status ${status}`] : [];
}

function isErrorBody(body: unknown, status: number): body is { code: string; message: string; status: number } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { code, message, status: bodyStatus, ...others } = body as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string' && bodyStatus === status && Object.keys(others).length === 0;
}

function jsonOf(bytes: Buffer): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Reports.

function summary(outcomes: readonly Outcome[], elapsedMs: number): string {
  const answers = new Map<string, number>();
  for (const { exchange } of outcomes) {
    const key = exchange.kind === 'answered' ? String(exchange.response.status) : exchange.kind;
    answers.set(key, (answers.get(key) ?? 0) + 1);
  }
  const dropped = outcomes.filter(({ exchange, problems }) => exchange.kind === 'closed' && problems.length === 0).length;
  const tally = [...answers]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, count]) => `${key}: ${count}`)
    .join(', ');
  return (
    `fuzz (${DATABASE}): seed ${SEED}, ${outcomes.length} requests in ${(elapsedMs / 1000).toFixed(1)} s; answers ${tally}; ` +
    `${dropped} connections closed unanswered on protocol violations. Replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`
  );
}

/**
 * Failures grouped by what went wrong and what came back, each group with its smallest requests.
 * The app logs nothing in process: replay a request against `npm start` to read the service's log.
 */
function failureReport(failures: readonly Outcome[], total: number): string {
  const groups = new Map<string, Outcome[]>();
  for (const failure of failures) {
    const key = `${failure.problems.join('; ')} ← ${answerShape(failure)}`;
    groups.set(key, [...(groups.get(key) ?? []), failure]);
  }
  const sections = [...groups].map(([key, members], number) => {
    const examples = [...members].sort((a, b) => wireBytes(a.request).length - wireBytes(b.request).length).slice(0, EXAMPLES);
    return `${number + 1}) ${key} (${members.length} requests)\n${examples.map(exampleText).join('\n')}`;
  });
  return (
    `${failures.length} of ${total} answers broke the rules: ${groups.size} distinct failures. ` +
    `Replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} (one request: FUZZ_SEED=${SEED} FUZZ_ONLY=<#>)\n\n${sections.join('\n\n')}`
  );
}

function exampleText({ index, request, exchange }: Outcome): string {
  return `   #${index}: ${shown(wireBytes(request))}\n   → ${answerText(exchange)}`;
}

/** What came back, without what varies between requests (messages, ids), to tell failures apart. */
function answerShape({ request, exchange }: Outcome): string {
  if (exchange.kind !== 'answered') return `${exchange.kind} (${request.method.slice(0, 12)})`;
  const { status, headers, body } = exchange.response;
  if (status < 300) return String(status);
  const type = headers.get('content-type')?.join(', ') ?? 'no Content-Type';
  const json = jsonOf(body) as { code?: unknown; status?: unknown } | undefined;
  const content = typeof json?.code === 'string' ? `code ${json.code}, status ${String(json.status)}` : shown(body.subarray(0, 40));
  return `${status}, ${type}, ${content}`;
}

function answerText(exchange: RawExchange): string {
  switch (exchange.kind) {
    case 'answered': {
      const { statusLine, headers, body } = exchange.response;
      return `${statusLine} | Content-Type: ${headers.get('content-type')?.join(', ') ?? '-'} | ${shown(body.subarray(0, 300))}`;
    }
    case 'closed':
      return `connection closed without an answer${exchange.error ? ` (${exchange.error})` : ''}`;
    case 'malformed':
    case 'timed out':
      return `${exchange.kind}: ${shown(exchange.bytes.subarray(0, 300))}`;
    case 'refused':
      return exchange.error;
  }
}

/** Bytes as a quoted string, every byte outside printable ASCII escaped, long runs folded (`[{×30000}`), cut at 600 characters. */
function shown(bytes: Buffer): string {
  const escapes: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\r': '\\r', '\n': '\\n', '\t': '\\t' };
  const text = bytes
    .toString('latin1')
    .replace(/[^\x20-\x7e]|[\\"]/g, (char) => escapes[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(/(.)\1{15,}/g, (run, char: string) => `${char}{×${run.length}}`);
  return text.length > 600 ? `"${text.slice(0, 600)}"…(${bytes.length} bytes)` : `"${text}"`;
}
