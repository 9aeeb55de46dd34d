import { getMetricsFromIterator, type PromData, type PromHistogramData } from 'prom2javascript';
import { register } from 'prom-client';
import { call } from '../testing/http';
import { type InProcessApp, startInProcessApp, TEST_API_KEY } from '../testing/in-process-app';

// createApp keeps its state to the application: two applications built in one process both serve,
// each /metrics counts its own requests only, each accepts its own keys only, and each keeps its
// data in a database of its own.

/** A series' value in an app's /metrics: a counter's, or a histogram's count; 0 when it has no such series. */
async function valueOf(petstore: InProcessApp, name: string, labels: Record<string, string>): Promise<number> {
  const response = await call(petstore, 'GET', '/metrics', { auth: false });
  expect(response.status).toBe(200);
  // The event-loop lag's `Nan`, which prom2javascript cannot read (as in shared-app/metrics.spec.ts).
  const metrics = await getMetricsFromIterator(response.text.replace(/ Nan$/gim, ' 0').split('\n')[Symbol.iterator]());
  const samples = (metrics[name]?.data ?? []) as (PromHistogramData & PromData)[];
  const sample = samples.find((candidate) => Object.entries(labels).every(([label, value]) => candidate.labels[label] === value));
  return sample?.count ?? sample?.value ?? 0;
}

const LIST = { route: '/v1/pets', method: 'GET', status_class: '2xx' };
const MISSING_KEY = { code: 'UNAUTHORIZED' };

describe('two applications in one process', () => {
  let first: InProcessApp;
  let second: InProcessApp;
  beforeAll(async () => {
    first = await startInProcessApp();
    second = await startInProcessApp();
  });
  afterAll(() => Promise.all([first?.close(), second?.close()]));

  it('each counts its own requests and Error answers only', async () => {
    const counts = () =>
      Promise.all(
        [first, second].flatMap((petstore) => [
          valueOf(petstore, 'petstore_http_request_duration_seconds', LIST),
          valueOf(petstore, 'petstore_http_errors_total', MISSING_KEY),
        ]),
      );
    const before = await counts();
    for (let request = 0; request < 3; request++) expect((await call(first, 'GET', '/v1/pets?limit=1')).status).toBe(200);
    expect((await call(second, 'GET', '/v1/pets?limit=1')).status).toBe(200);
    for (let request = 0; request < 2; request++) expect((await call(second, 'GET', '/v1/pets', { auth: false })).status).toBe(401);
    const after = await counts();

    expect(after.map((count, index) => count - before[index])).toEqual([3, 0, 1, 2]);
  });

  it('each times the statements of its own database', async () => {
    const statement = { statement: 'pets_find_by_id' };
    const before = await Promise.all([first, second].map((petstore) => valueOf(petstore, 'petstore_db_query_duration_seconds', statement)));
    expect((await call(first, 'GET', '/v1/pets/987654321')).status).toBe(404);
    const after = await Promise.all([first, second].map((petstore) => valueOf(petstore, 'petstore_db_query_duration_seconds', statement)));

    expect(after.map((count, index) => count - before[index])).toEqual([1, 0]);
  });

  it('each keeps its pets in a database of its own, which closing another application leaves open', async () => {
    const created = await call(first, 'POST', '/v1/pets', { json: { name: 'Only in the first', categoryId: 1 } });
    expect(created.status).toBe(201);
    const location = created.headers.get('location') ?? '';
    expect((await call(second, 'GET', location)).status).toBe(404);

    const third = await startInProcessApp();
    expect((await call(third, 'GET', location)).status).toBe(404);
    await third.close();
    expect((await call(first, 'GET', location)).status).toBe(200);
    expect((await call(second, 'GET', '/v1/pets?limit=1')).status).toBe(200);
  });

  it('each authenticates with its own keys', async () => {
    const otherKey = 'another-application-key-0123456789';
    const other = await startInProcessApp({ API_KEYS: otherKey });
    try {
      const status = (petstore: InProcessApp, key: string) =>
        petstore.fastify
          .inject({ url: '/v1/pets?limit=1', headers: { authorization: `Bearer ${key}` } })
          .then((answer) => answer.statusCode);
      expect(
        await Promise.all([status(other, otherKey), status(first, otherKey), status(other, TEST_API_KEY), status(first, TEST_API_KEY)]),
      ).toEqual([200, 401, 401, 200]);
    } finally {
      await other.close();
    }
  });

  it("registers nothing on prom-client's global registry", () => {
    expect(register.getMetricsAsArray()).toEqual([]);
  });
});
