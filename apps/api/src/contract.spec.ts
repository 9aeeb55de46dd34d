import { BODY_LIMIT_BYTES } from '@petstore/http';
import { PetRepository, StoreUnavailableError } from '@petstore/domain';
import { Database } from '@petstore/persistence';
import type { InjectOptions } from 'fastify';
import {
  committedDocument,
  type DocumentedOperation,
  driftFromCommitted,
  exampleRequestOf,
  operationsOf,
  parametersOf,
  ResponseValidator,
} from './testing/document';
import { AUTH, type InProcessApp, startInProcessApp } from './testing/in-process-app';
import { type RunningPrism, startPrism } from './testing/prism';

// Every documented answer of every operation, on the real application: the operations and their
// statuses come from the committed document, and each answer's body is checked against its schema.
// A status is produced by a generic request (the same for every operation) unless it depends on
// the operation's own rules (BY_OPERATION). A new operation or status without a way to produce it fails here.
// With TEST_PRISM=1 (CI), every request goes through Stoplight Prism as a validating proxy in front
// of the app listening on a free port, and any response violation Prism reports fails the file.

const document = committedDocument();
const validator = new ResponseValidator(document);
const INT64_MAX = '9223372036854775807';
/** Failed authentications an address may make per minute in this app: 429 after them. */
const AUTH_FAILURES = 3;
const THROUGH_PRISM = process.env.TEST_PRISM === '1';

type Arrange = (petstore: InProcessApp) => void | Promise<void>;
/** A case's request, its URL and body as text: Prism is sent them too. */
type CaseRequest = InjectOptions & { url: string; payload?: string };
interface Recipe {
  readonly arrange?: Arrange;
  readonly request: (operation: DocumentedOperation) => CaseRequest;
}

let addressCount = 0;
/** A client address of its own for each request: the failure budget counts per address. */
const newAddress = () => `10.9.${Math.floor(++addressCount / 250)}.${addressCount % 250}`;

/** The operation's documented example request, with `path` values replacing its path parameters' examples. */
function exampleRequest(entry: DocumentedOperation, path: Record<string, string> = {}): CaseRequest {
  const { method, url, body } = exampleRequestOf(document, entry, path);
  return {
    method,
    url,
    remoteAddress: newAddress(),
    headers: { ...AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: body }),
  };
}

/** The request with these headers set, or removed where undefined. */
function withHeaders(request: CaseRequest, headers: Record<string, string | undefined>): CaseRequest {
  const merged = Object.entries({ ...request.headers, ...headers }).filter(([, value]) => value !== undefined);
  return { ...request, headers: Object.fromEntries(merged) };
}

const failingDatabase =
  (error: Error): Arrange =>
  ({ app }) => {
    jest.spyOn(app.get(Database), 'query').mockRejectedValueOnce(error);
  };

/** The pet the last `arrange: addPet` made: each case that needs one has its own, whatever the cases before did to theirs. */
let ownPet = '';
const addPet: Arrange = async ({ fastify }) => {
  const create = operationsOf(document).find((entry) => entry.operationId === 'createPet')!;
  const created = await fastify.inject(exampleRequest(create));
  ownPet = String(created.json<{ id: number }>().id);
};
/** The example request with every path parameter naming the case's own pet. */
const onOwnPet = (entry: DocumentedOperation) =>
  exampleRequest(entry, Object.fromEntries(parametersOf(entry).flatMap((p) => (p.in === 'path' ? [[p.name, ownPet]] : []))));

const GENERIC: Readonly<Record<string, Recipe>> = {
  success: { arrange: addPet, request: onOwnPet },
  // `*` names any current answer (RFC 9110, section 13.1.2): the example's 200 becomes a 304.
  '304': { arrange: addPet, request: (entry) => withHeaders(onOwnPet(entry), { 'if-none-match': '*' }) },
  '400': {
    request: (entry) => {
      const request = exampleRequest(entry);
      if (request.payload !== undefined) return { ...request, payload: '[]' };
      const parameter = parametersOf(entry).find((p) => p.in === 'query' || p.in === 'path');
      if (!parameter) throw new Error(`${entry.operationId} has no input to get wrong`);
      if (parameter.in === 'path') return exampleRequest(entry, { [parameter.name]: 'x' });
      return { ...request, url: `${request.url}?${parameter.name}=x` };
    },
  },
  '401': { request: (entry) => withHeaders(exampleRequest(entry), { authorization: undefined }) },
  '404': {
    request: (entry) =>
      exampleRequest(entry, Object.fromEntries(parametersOf(entry).flatMap((p) => (p.in === 'path' ? [[p.name, INT64_MAX]] : [])))),
  },
  '413': { request: (entry) => ({ ...exampleRequest(entry), payload: `{"name":"${'a'.repeat(BODY_LIMIT_BYTES)}"}` }) },
  '415': {
    request: (entry) => withHeaders(exampleRequest(entry), { 'content-type': 'text/plain' }),
  },
  '429': {
    // The address spends its failure budget first, then sends the request with a wrong key.
    arrange: async ({ fastify }) => {
      for (let failure = 0; failure < AUTH_FAILURES; failure++) {
        await fastify.inject({
          method: 'GET',
          url: '/v1/pets',
          remoteAddress: '10.8.0.1',
          headers: { authorization: 'Bearer wrong-0123456789' },
        });
      }
    },
    request: (entry) => ({
      ...withHeaders(exampleRequest(entry), { authorization: 'Bearer wrong-0123456789' }),
      remoteAddress: '10.8.0.1',
    }),
  },
  '500': { arrange: failingDatabase(new Error('an unexpected failure')), request: (entry) => exampleRequest(entry) },
  '503': { arrange: failingDatabase(new StoreUnavailableError()), request: (entry) => exampleRequest(entry) },
};

const withIdempotencyKey = (request: CaseRequest, key: string) => withHeaders(request, { 'idempotency-key': key });

const BY_OPERATION: Readonly<Record<string, Recipe>> = {
  // A create under way with the key: the port says so (PGlite runs one statement at a time; the
  // real race is shown on PostgreSQL by the e2e suite).
  'createPet 409': {
    arrange: ({ app }) => {
      jest.spyOn(app.get(PetRepository), 'createOnce').mockResolvedValueOnce({ outcome: 'in-progress' });
    },
    request: (entry) => withIdempotencyKey(exampleRequest(entry), 'contract-409'),
  },
  // The key was used for another body.
  'createPet 422': {
    arrange: async ({ fastify }) => {
      const first = withIdempotencyKey(exampleRequest(operationsOf(document).find((e) => e.operationId === 'createPet')!), 'contract-422');
      await fastify.inject({ ...first, payload: '{"name":"First","categoryId":1}' });
    },
    request: (entry) => withIdempotencyKey(exampleRequest(entry), 'contract-422'),
  },
};

function recipeFor(entry: DocumentedOperation, status: string): Recipe | undefined {
  return BY_OPERATION[`${entry.operationId} ${status}`] ?? GENERIC[/^2\d\d$/.test(status) ? 'success' : status];
}

const cases = operationsOf(document).flatMap((entry) =>
  Object.keys(entry.operation.responses).map((status) => [`${entry.operationId} ${status}`, entry, status] as const),
);

/** What the cases read of an answer, from inject or (through Prism) from fetch. */
interface Answer {
  readonly statusCode: number;
  readonly body: string;
}

/**
 * Sends a case's request: by inject, or through Prism over HTTP. Behind Prism every connection
 * comes from 127.0.0.1, so the client address travels in X-Forwarded-For (the app then trusts the
 * loopback proxy).
 */
async function send(petstore: InProcessApp, prism: RunningPrism | undefined, request: CaseRequest): Promise<Answer> {
  if (!prism) return petstore.fastify.inject(request);
  const headers: Record<string, string> = { ...(request.headers as Record<string, string>) };
  if (request.remoteAddress) headers['x-forwarded-for'] = request.remoteAddress;
  const response = await fetch(`${prism.url}${request.url.slice('/v1'.length)}`, {
    method: request.method,
    headers,
    body: request.payload,
  });
  return { statusCode: response.status, body: await response.text() };
}

describe('the committed document: every documented answer of every operation, in process', () => {
  let petstore: InProcessApp;
  let prism: RunningPrism | undefined;
  /** Prism while it starts: stopped after the tests even if beforeAll gave up waiting for it. */
  let prismStarting: Promise<RunningPrism> | undefined;
  beforeAll(async () => {
    petstore = await startInProcessApp({
      RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: String(AUTH_FAILURES),
      ...(THROUGH_PRISM ? { TRUST_PROXY: 'loopback' } : {}),
    });
    if (THROUGH_PRISM) prism = await (prismStarting = petstore.listen().then((url) => startPrism(`${url}/v1`)));
  });
  afterAll(async () => {
    const violations =
      (await prismStarting?.then(
        (started) => started.stop(),
        () => [],
      )) ?? [];
    await petstore?.close();
    if (prism) console.log(`Prism reported ${violations.length} response violations`);
    expect(violations).toEqual([]);
  });
  afterEach(() => jest.restoreAllMocks());

  it('comes from a committed document that has every operation of the code, as the code describes it', () => {
    expect(driftFromCommitted(JSON.parse(JSON.stringify(petstore.document)) as typeof document, document)).toEqual([]);
  });

  it('has a request for each', () => {
    const missing = cases.filter(([, entry, status]) => !recipeFor(entry, status)).map(([name]) => name);
    expect({ missing, fix: 'add a request for each to BY_OPERATION in apps/api/src/contract.spec.ts' }).toEqual({
      missing: [],
      fix: expect.any(String),
    });
  });

  it.each(cases)('%s', async (_name, entry, status) => {
    const recipe = recipeFor(entry, status);
    if (!recipe) return;
    await recipe.arrange?.(petstore);
    const response = await send(petstore, prism, recipe.request(entry));
    expect({ status: response.statusCode, body: response.body.slice(0, 300) }).toEqual({
      status: Number(status),
      body: expect.any(String),
    });
    const body = response.body === '' ? undefined : (JSON.parse(response.body) as unknown);
    expect({ [`${entry.operationId} ${status}`]: validator.bodyProblem(entry, Number(status), body) }).toEqual({
      [`${entry.operationId} ${status}`]: undefined,
    });
  });
});
