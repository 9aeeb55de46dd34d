import { createHash, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { type ApiResponse, baseUrl, call, expectError, target } from './support/api';
import { expectDocumentedResponse } from './support/contract';
import { CuttableProxy } from './support/cuttable-proxy';
import { AUTH, databaseEnv, type RunningServer, startServer, TEST_API_KEY, testDatabaseUrl } from './support/server';

// Safe retries of createPet: every guarantee of the Idempotency-Key, on both stores where it can
// be shown there (the 409 of a create in progress, several instances and database outages need
// PostgreSQL: the embedded database runs one statement at a time in one process), and through
// PgBouncer in transaction mode (the pooled target).

const onPostgres = target !== 'pglite';
const itOnPostgres = onPostgres ? it : it.skip;

const newKey = () => randomUUID();
const uniqueName = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const idOf = (response: ApiResponse) => BigInt(/"id":(\d+)/.exec(response.text)![1]);

/** A keyed create on the shared server (through Prism when it validates the run). */
function createKeyed(key: string, json: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return call('POST', '/v1/pets', { json, headers: { 'idempotency-key': key, ...headers } });
}

/** A create on a server of the test's own, straight to it, checked against the document like every other answer. */
async function post(server: string, body: string, headers: Record<string, string> = {}, apiKey = TEST_API_KEY): Promise<ApiResponse> {
  const response = await fetch(`${server}/v1/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as unknown) : undefined;
  expectDocumentedResponse('POST', '/v1/pets', response.status, response.headers, parsed);
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** A pet created without a key: every pet created after it has a greater id. */
async function marker(server = baseUrl()): Promise<bigint> {
  return idOf(await post(server, JSON.stringify({ name: 'Marker', categoryId: 1 })));
}

/** The pets called `name` among those created after `after`, paging through the list. */
async function petsNamed(name: string, after: bigint, server = baseUrl()): Promise<bigint[]> {
  const found: bigint[] = [];
  for (let cursor = after; ;) {
    const response = await fetch(`${server}/v1/pets?limit=100&after=${cursor}`, { headers: AUTH });
    const page = [...(await response.text()).matchAll(/\{"id":(\d+),"name":("(?:[^"\\]|\\.)*")/g)];
    found.push(...page.filter(([, , json]) => JSON.parse(json) === name).map(([, id]) => BigInt(id)));
    if (page.length < 100) return found;
    cursor = BigInt(page[page.length - 1][1]);
  }
}

/** Runs `work` on a connection of its own to the test PostgreSQL. */
async function withDatabase<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: testDatabaseUrl(target) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The idempotency records of these keys and the pets they name: both are written or neither, so each record has its pet. */
async function recordsOf(keys: readonly string[]): Promise<Array<{ key: string; petId: bigint; petExists: boolean }>> {
  const { rows } = await withDatabase((client) =>
    client.query<{ key: string; petId: string; petExists: boolean }>(
      `SELECT r.idempotency_key AS key, r.pet_id AS "petId", p.id IS NOT NULL AS "petExists"
       FROM idempotency_records r LEFT JOIN pets p ON p.id = r.pet_id WHERE r.idempotency_key = ANY($1)`,
      [keys],
    ),
  );
  return rows.map((row) => ({ ...row, petId: BigInt(row.petId) }));
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

  it('replays the answer byte for byte, int64 digits included (straight to the service)', async () => {
    const key = newKey();
    const body = `{"name":"${uniqueName('Int64')}","categoryId":9223372036854775807}`;
    const send = () => call('POST', '/v1/pets', { body, headers: { 'content-type': 'application/json', 'idempotency-key': key } });
    const first = await send();
    expectCreated(first);
    expect(first.text).toContain('"categoryId":9223372036854775807');
    expectReplayOf(first, await send());
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED to the same key with another body, even the same JSON written otherwise, and keeps the first answer', async () => {
    const after = await marker();
    const key = newKey();
    const body = `{"name":"${uniqueName('Reused')}","categoryId":1}`;
    const send = (text: string) =>
      call('POST', '/v1/pets', { body: text, headers: { 'content-type': 'application/json', 'idempotency-key': key } });
    const first = await send(body);
    expectCreated(first);

    for (const other of [body.replace('"categoryId":1', '"categoryId":2'), body.replace(',', ', '), `${body}\n`]) {
      const refused = await send(other);
      expectError(refused, 422, 'IDEMPOTENCY_KEY_REUSED');
      expect(refused.headers.get('idempotent-replayed')).toBeNull();
    }
    expectReplayOf(first, await send(body));
    expect(await petsNamed(JSON.parse(body).name, after)).toEqual([idOf(first)]);
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
    const wrongType = await call('POST', '/v1/pets', {
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
      await withDatabase(async (client) => {
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
        // Before the service's 1.5 s query time-out: the waiting create then goes on, and succeeds.
        await client.query('ROLLBACK');
        const answers = await Promise.all([first, second]);

        expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
        const busy = answers.find((answer) => answer.status === 409)!;
        expectError(busy, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
        expect(busy.headers.get('retry-after')).toBe('1');
        const created = answers.find((answer) => answer.status === 201)!;
        expectCreated(created);
        expectReplayOf(created, await createKeyed(key, pet));
      });
    },
  );

  describe('on a server of its own', () => {
    let server: RunningServer | undefined;

    afterEach(async () => {
      await server?.stop();
      server = undefined;
    });

    it('scopes keys to the API key that sent them: another client with the same key string gets its own pet', async () => {
      server = await startServer({ ...databaseEnv(target), API_KEYS: 'client-one-key-0123456789,client-two-key-0123456789' });
      const key = newKey();
      const body = JSON.stringify({ name: uniqueName('Scoped'), categoryId: 5 });
      const headers = { 'idempotency-key': key };

      const one = await post(server.url, body, headers, 'client-one-key-0123456789');
      const two = await post(server.url, body, headers, 'client-two-key-0123456789');
      expectCreated(one);
      expectCreated(two);
      expect(idOf(two)).not.toBe(idOf(one));
      expectReplayOf(one, await post(server.url, body, headers, 'client-one-key-0123456789'));
      expectReplayOf(two, await post(server.url, body, headers, 'client-two-key-0123456789'));

      // Nor is another client's different request with a key of the first client's a mismatch.
      const onlyOne = { 'idempotency-key': newKey() };
      expectCreated(await post(server.url, JSON.stringify({ name: 'One', categoryId: 6 }), onlyOne, 'client-one-key-0123456789'));
      expectCreated(await post(server.url, JSON.stringify({ name: 'Two', categoryId: 7 }), onlyOne, 'client-two-key-0123456789'));
    });

    it('removes expired records in the background; an expired key is free again', async () => {
      server = await startServer({ ...databaseEnv(target), IDEMPOTENCY_KEY_LIFETIME_SECONDS: '1', LOG_LEVEL: 'debug' });
      const key = newKey();
      const body = JSON.stringify({ name: uniqueName('Expiring'), categoryId: 8 });
      const first = await post(server.url, body, { 'idempotency-key': key });
      expectCreated(first);

      // A lifetime of 1 s is swept every second. PostgreSQL is asked for the record itself (the
      // database may hold other expired records); the embedded database is new, this record its only one.
      const running = server;
      const swept = async () =>
        onPostgres ? (await recordsOf([key])).length === 0 : running.output().includes('Deleted 1 expired idempotency records');
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && !(await swept())) await sleep(100);
      expect(await swept()).toBe(true);

      const again = await post(server.url, body, { 'idempotency-key': key });
      expectCreated(again);
      expect(idOf(again)).not.toBe(idOf(first));
    });

    it('keeps exactly one pet per key when the service is killed (SIGKILL) amid keyed creates, and the retries complete them', async () => {
      const env = databaseEnv(target);
      server = await startServer(env);
      const after = await marker(server.url);
      const creates = Array.from({ length: 40 }, () => ({
        key: newKey(),
        body: JSON.stringify({ name: uniqueName('Killed'), categoryId: 9 }),
      }));
      const url = server.url;

      const inFlight = creates.map(({ key, body }) =>
        fetch(`${url}/v1/pets`, {
          method: 'POST',
          headers: { ...AUTH, 'content-type': 'application/json', 'idempotency-key': key },
          body,
        }).then(
          (response) => response.status,
          () => 'lost' as const,
        ),
      );
      // Kill as soon as the first answer is in: the others are queued, under way or not yet read.
      await Promise.race(inFlight);
      await server.stop('SIGKILL');
      const before = await Promise.all(inFlight);
      expect(before).toContain(201);

      server = await startServer(env);
      const retries = [];
      for (const { key, body } of creates) retries.push(await post(server.url, body, { 'idempotency-key': key }));
      for (const [index, retry] of retries.entries()) {
        expect(retry.status).toBe(201);
        // A replay means a record survived: then so did its pet, with that id, alone.
        expect(await petsNamed(JSON.parse(creates[index].body).name, after, server.url)).toEqual([idOf(retry)]);
        if (before[index] === 201) expect(retry.headers.get('idempotent-replayed')).toBe('true');
      }
      if (onPostgres) {
        const records = await recordsOf(creates.map(({ key }) => key));
        expect(records).toHaveLength(creates.length);
        expect(records.every((record) => record.petExists)).toBe(true);
      }
    });

    itOnPostgres('creates exactly one pet for 20 concurrent requests with one key spread over two instances', async () => {
      server = await startServer(databaseEnv(target));
      const instances = [baseUrl(), server.url];
      const after = await marker();
      const key = newKey();
      const body = JSON.stringify({ name: uniqueName('TwoInstances'), categoryId: 10 });

      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) => post(instances[index % 2], body, { 'idempotency-key': key })),
      );

      expectBurstAnswers(answers);
      const ids = await petsNamed(JSON.parse(body).name, after);
      expect(ids).toHaveLength(1);
      for (const instance of instances) {
        const replay = await post(instance, body, { 'idempotency-key': key });
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(idOf(replay)).toBe(ids[0]);
      }
    });
  });

  (onPostgres ? describe : describe.skip)('through a database outage', () => {
    let proxy: CuttableProxy;
    /** The test PostgreSQL through the proxy. */
    let proxiedEnv: Record<string, string>;
    let server: RunningServer;

    beforeAll(async () => {
      // In front of what the services reach: PostgreSQL, or PgBouncer on the pooled target.
      const env = databaseEnv(target);
      const proxied = await CuttableProxy.inFrontOf(env.DATABASE_URL);
      proxy = proxied.proxy;
      proxiedEnv = { ...env, DATABASE_URL: proxied.url };
      server = await startServer(proxiedEnv);
    });

    afterAll(async () => {
      await server?.stop();
      await proxy?.cut();
    });

    /** Retries a create as a client would, until the database is back. */
    async function retryUntilServed(body: string, key: string): Promise<ApiResponse> {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const response = await post(server.url, body, { 'idempotency-key': key });
        if (response.status !== 503 || Date.now() > deadline) return response;
        await sleep(200);
      }
    }

    it('answers 503 while the database is unreachable and stores nothing; the retry once it is back creates the pet, once', async () => {
      const key = newKey();
      const body = JSON.stringify({ name: uniqueName('Outage'), categoryId: 11 });
      await proxy.cut();
      try {
        expectError(await post(server.url, body, { 'idempotency-key': key }), 503, 'SERVICE_UNAVAILABLE');
      } finally {
        await proxy.open();
      }
      const created = await retryUntilServed(body, key);
      expectCreated(created);
      expectReplayOf(created, await post(server.url, body, { 'idempotency-key': key }));
      expect(await recordsOf([key])).toEqual([{ key, petId: idOf(created), petExists: true }]);
    });

    it('says a write whose answer was lost may have been done (never 503), and the retry replays the pet instead of creating another', async () => {
      const after = await marker(server.url);
      const key = newKey();
      const body = JSON.stringify({ name: uniqueName('LostAnswer'), categoryId: 12 });
      // The statement reaches PostgreSQL and commits; its reply never comes back, nor the answer to
      // the cancel: the service gives up and says that it cannot tell what happened.
      proxy.droppingReplies = true;
      try {
        expectError(await post(server.url, body, { 'idempotency-key': key }), 500, 'WRITE_OUTCOME_UNKNOWN');
      } finally {
        proxy.droppingReplies = false;
      }
      const [created] = await petsNamed(JSON.parse(body).name, after, server.url);
      expect(created).toBeDefined();

      const retry = await retryUntilServed(body, key);
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(idOf(retry)).toBe(created);
      expect(await petsNamed(JSON.parse(body).name, after, server.url)).toEqual([created]);
    });

    it('keeps the pet and its record together when the service is killed (SIGKILL) waiting for the database, and the retry replays it', async () => {
      const after = await marker(server.url);
      const key = newKey();
      const body = JSON.stringify({ name: uniqueName('KilledMidCreate'), categoryId: 13 });
      const victim = await startServer(proxiedEnv);
      // A pooled connection, open and just used: the create needs no new one, which could not connect while replies are dropped.
      expect((await fetch(`${victim.url}/v1/pets?limit=1`, { headers: AUTH })).status).toBe(200);
      proxy.droppingReplies = true;
      try {
        const answer = post(victim.url, body, { 'idempotency-key': key }).then(
          (response) => response.status,
          () => 'lost' as const,
        );
        // The statement has been sent and committed; the service waits for a reply that is dropped.
        await sleep(500);
        await victim.stop('SIGKILL');
        expect(await answer).toBe('lost');
      } finally {
        proxy.droppingReplies = false;
      }

      const retry = await post(baseUrl(), body, { 'idempotency-key': key });
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await petsNamed(JSON.parse(body).name, after)).toEqual([idOf(retry)]);
      expect(await recordsOf([key])).toEqual([{ key, petId: idOf(retry), petExists: true }]);
    });
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
