import { createHash, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { type ApiResponse, call, expectError } from '../testing/http';
import { CLIENT_ONE, CLIENT_TWO, type InProcessApp, sharedApp, TEST_API_KEY } from '../testing/in-process-app';

// Safe retries of createPet on the real application, in process: every guarantee of the
// Idempotency-Key that one instance gives, on PGlite and (TEST_DATABASE_URL) on PostgreSQL, where
// a create in progress can be held by another session (409). The expiry of keys:
// own-app/idempotency-expiry.spec.ts. Several instances, a killed process and a database outage:
// apps/api-e2e's idempotency.e2e-spec.ts.

const onPostgres = process.env.TEST_DATABASE_URL !== undefined;
const itOnPostgres = onPostgres ? it : it.skip;

const newKey = () => randomUUID();
const uniqueName = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const idOf = (response: ApiResponse) => BigInt(/"id":(\d+)/.exec(response.text)![1]);

let petstore: InProcessApp;
beforeAll(async () => {
  petstore = await sharedApp();
});

/** A keyed create, checked against the document like every other answer. */
function createKeyed(key: string, json: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return call(petstore, 'POST', '/v1/pets', { json, headers: { 'idempotency-key': key, ...headers } });
}

/** A create with the body as text, with another API key if given. */
function post(body: string, headers: Record<string, string> = {}, apiKey = TEST_API_KEY): Promise<ApiResponse> {
  return call(petstore, 'POST', '/v1/pets', {
    body,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
  });
}

/** A pet created without a key: every pet created after it has a greater id. */
async function marker(): Promise<bigint> {
  return idOf(await post(JSON.stringify({ name: 'Marker', categoryId: 1 })));
}

/** The pets called `name` among those created after `after`, paging through the list. */
async function petsNamed(name: string, after: bigint): Promise<bigint[]> {
  const found: bigint[] = [];
  for (let cursor = after; ;) {
    const page = [
      ...(await call(petstore, 'GET', `/v1/pets?limit=100&after=${cursor}`)).text.matchAll(/\{"id":(\d+),"name":("(?:[^"\\]|\\.)*")/g),
    ];
    found.push(...page.filter(([, , json]) => JSON.parse(json) === name).map(([, id]) => BigInt(id)));
    if (page.length < 100) return found;
    cursor = BigInt(page[page.length - 1][1]);
  }
}

function expectReplayOf(first: ApiResponse, retry: ApiResponse): void {
  expect(retry.status).toBe(201);
  expect(retry.text).toBe(first.text);
  expect(retry.headers.get('location')).toBe(first.headers.get('location'));
  expect(retry.headers.get('idempotent-replayed')).toBe('true');
}

function expectCreated(response: ApiResponse): void {
  expect(response.status).toBe(201);
  expect(response.headers.get('idempotent-replayed')).toBeNull();
  expect(response.headers.get('location')).toBe(`/v1/pets/${idOf(response)}`);
}

describe('POST /v1/pets with an Idempotency-Key', () => {
  it('creates on the first request; a retry gets the same 201, body and Location, marked as a replay, and creates nothing', async () => {
    const after = await marker();
    const key = newKey();
    const pet = { name: uniqueName('Once'), categoryId: 7, status: 'pending' };

    const first = await createKeyed(`"${key}"`, pet);
    expectCreated(first);
    expect(first.body).toEqual({ id: expect.any(Number), ...pet });
    for (let retry = 0; retry < 3; retry++) expectReplayOf(first, await createKeyed(`"${key}"`, pet));

    expect(await petsNamed(pet.name, after)).toEqual([idOf(first)]);
  });

  it('takes the structured-field string of the draft and the bare token of Stripe-style clients as the same key', async () => {
    const key = newKey();
    const pet = { name: uniqueName('Forms'), categoryId: 1 };
    const quoted = await createKeyed(`"${key}"`, pet);
    expectCreated(quoted);
    expectReplayOf(quoted, await createKeyed(key, pet));
  });

  it('replays the answer byte for byte, int64 digits included', async () => {
    const key = newKey();
    const body = `{"name":"${uniqueName('Int64')}","categoryId":9223372036854775807}`;
    const send = () => post(body, { 'idempotency-key': key });
    const first = await send();
    expectCreated(first);
    expect(first.text).toContain('"categoryId":9223372036854775807');
    expectReplayOf(first, await send());
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED to the same key with another body, even the same JSON written otherwise, and keeps the first answer', async () => {
    const after = await marker();
    const key = newKey();
    const body = `{"name":"${uniqueName('Reused')}","categoryId":1}`;
    const send = (text: string) => post(text, { 'idempotency-key': key });
    const first = await send(body);
    expectCreated(first);

    for (const other of [body.replace('"categoryId":1', '"categoryId":2'), body.replace(',', ', '), `${body}\n`]) {
      const refused = await send(other);
      expectError(refused, 422, 'IDEMPOTENCY_KEY_REUSED');
      expect(refused.headers.get('idempotent-replayed')).toBeNull();
    }
    expectReplayOf(first, await send(body));
    expect(await petsNamed((JSON.parse(body) as { name: string }).name, after)).toEqual([idOf(first)]);
  });

  it.each([
    ['an empty value', ''],
    ['an empty string', '""'],
    ['a space', 'a b'],
    ['256 characters', 'k'.repeat(256)],
    ['an unterminated string', '"abc'],
    ['a string with parameters', '"abc";v=1'],
    ['a tab', 'a\tb'],
  ])('answers 400 VALIDATION_FAILED to a key that is %s', async (_case, key) => {
    const response = await createKeyed(key, { name: 'Rex', categoryId: 1 });
    expectError(response, 400, 'VALIDATION_FAILED');
    expect((response.body as { message: string }).message).toContain('Idempotency-Key');
  });

  it('keeps nothing of a refused request: after a 400 or a 415, the key is free for the next try', async () => {
    const key = newKey();
    const name = uniqueName('Afresh');
    expectError(await createKeyed(key, { name, categoryId: 'one' }), 400, 'VALIDATION_FAILED');
    expectError(await createKeyed(key, `{"name":"${name}",`), 400, 'MALFORMED_JSON');
    const wrongType = await call(petstore, 'POST', '/v1/pets', {
      body: `{"name":"${name}","categoryId":1}`,
      headers: { 'content-type': 'text/plain', 'idempotency-key': key },
    });
    expectError(wrongType, 415, 'UNSUPPORTED_MEDIA_TYPE');

    const created = await createKeyed(key, { name, categoryId: 1 });
    expectCreated(created);
    expectReplayOf(created, await createKeyed(key, { name, categoryId: 1 }));
  });

  it('creates exactly one pet for 20 concurrent requests with one key: each gets the 201 or a 409 to retry', async () => {
    const after = await marker();
    const key = newKey();
    const pet = { name: uniqueName('Burst'), categoryId: 3 };

    const answers = await Promise.all(Array.from({ length: 20 }, () => createKeyed(key, pet)));

    expectBurstAnswers(answers);
    const [id] = await petsNamed(pet.name, after);
    expect(await petsNamed(pet.name, after)).toEqual([id]);
    expect(answers.filter((answer) => answer.status === 201).every((answer) => idOf(answer) === id)).toBe(true);
    expect((await createKeyed(key, pet)).headers.get('idempotent-replayed')).toBe('true');
  });

  itOnPostgres(
    'answers 409 IDEMPOTENCY_KEY_IN_PROGRESS with Retry-After while a create with the key is under way, then replays it',
    async () => {
      const key = newKey();
      const pet = { name: uniqueName('Busy'), categoryId: 4 };
      // The test's own transaction writes a record for the key and keeps it open: the first create
      // claims the key and waits on that row (PostgreSQL's unique check), in progress for certain.
      const client = new Client({ connectionString: petstore.databaseUrl });
      await client.connect();
      try {
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO idempotency_records (api_key_id, idempotency_key, request_sha256, pet_id, response_body, expires_at)
         VALUES ('env-1', $1, $2, 0, '{}', now() + interval '1 hour')`,
          [key, createHash('sha256').update('another request').digest()],
        );
        const first = createKeyed(key, pet);
        await sleep(300);
        const second = createKeyed(key, pet);
        await sleep(300);
        // Before the service's statement deadline: the waiting create then goes on, and succeeds.
        await client.query('ROLLBACK');
        const answers = await Promise.all([first, second]);

        expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
        const busy = answers.find((answer) => answer.status === 409)!;
        expectError(busy, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
        expect(busy.headers.get('retry-after')).toBe('1');
        const created = answers.find((answer) => answer.status === 201)!;
        expectCreated(created);
        expectReplayOf(created, await createKeyed(key, pet));
      } finally {
        await client.end();
      }
    },
  );

  it('scopes keys to the API key that sent them: another client with the same key string gets its own pet', async () => {
    const key = newKey();
    const body = JSON.stringify({ name: uniqueName('Scoped'), categoryId: 5 });
    const headers = { 'idempotency-key': key };

    const one = await post(body, headers, CLIENT_ONE);
    const two = await post(body, headers, CLIENT_TWO);
    expectCreated(one);
    expectCreated(two);
    expect(idOf(two)).not.toBe(idOf(one));
    expectReplayOf(one, await post(body, headers, CLIENT_ONE));
    expectReplayOf(two, await post(body, headers, CLIENT_TWO));

    // Nor is another client's different request with a key of the first client's a mismatch.
    const onlyOne = { 'idempotency-key': newKey() };
    expectCreated(await post(JSON.stringify({ name: 'One', categoryId: 6 }), onlyOne, CLIENT_ONE));
    expectCreated(await post(JSON.stringify({ name: 'Two', categoryId: 7 }), onlyOne, CLIENT_TWO));
  });
});

/** Only 201s and 409s; the 201s all the same answer; the 409s each with their Retry-After. */
function expectBurstAnswers(answers: readonly ApiResponse[]): void {
  const statuses = new Set(answers.map((answer) => answer.status));
  expect([...statuses].filter((status) => status !== 201 && status !== 409)).toEqual([]);
  const created = answers.filter((answer) => answer.status === 201);
  expect(created.length).toBeGreaterThan(0);
  expect(new Set(created.map((answer) => answer.text)).size).toBe(1);
  expect(new Set(created.map((answer) => answer.headers.get('location'))).size).toBe(1);
  expect(created.filter((answer) => answer.headers.get('idempotent-replayed') === null)).toHaveLength(1);
  for (const busy of answers.filter((answer) => answer.status === 409)) {
    expectError(busy, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
    expect(busy.headers.get('retry-after')).toBe('1');
  }
}
