import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { type ApiResponse, baseUrl, expectError, target } from './support/api';
import { expectDocumentedResponse } from './support/contract';
import { CuttableProxy } from './support/cuttable-proxy';
import { AUTH, databaseEnv, type RunningServer, startServer, TEST_API_KEY, testDatabaseUrl } from './support/server';

// Safe retries of createPet where they need a process or several: a service killed amid keyed
// creates, on both stores; and on PostgreSQL (straight, or through PgBouncer in transaction mode on
// the pooled target) several instances sharing keys and database outages. What one instance
// guarantees is shown in process: apps/api/src/shared-app/idempotency.spec.ts.

const onPostgres = target !== 'pglite';
const itOnPostgres = onPostgres ? it : it.skip;

const newKey = () => randomUUID();
const uniqueName = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const idOf = (response: ApiResponse) => BigInt(/"id":(\d+)/.exec(response.text)![1]);

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

/** The name that a create's JSON body gives its pet. */
const nameOf = (body: string) => (JSON.parse(body) as { name: string }).name;

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
  describe('on a server of its own', () => {
    let server: RunningServer | undefined;

    afterEach(async () => {
      await server?.stop();
      server = undefined;
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
        expect(await petsNamed(nameOf(creates[index].body), after, server.url)).toEqual([idOf(retry)]);
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
      const ids = await petsNamed(nameOf(body), after);
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
      const [created] = await petsNamed(nameOf(body), after, server.url);
      expect(created).toBeDefined();

      const retry = await retryUntilServed(body, key);
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(idOf(retry)).toBe(created);
      expect(await petsNamed(nameOf(body), after, server.url)).toEqual([created]);
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
      expect(await petsNamed(nameOf(body), after)).toEqual([idOf(retry)]);
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
