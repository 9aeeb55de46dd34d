import { getMetricsFromIterator, type PromData, type PromHistogramData } from 'prom2javascript';
import { call, expectNoPetWithId } from './testing/http';
import { type InProcessApp, startInProcessApp } from './testing/in-process-app';

// GET /metrics on the API port, on the real application in process. On a port of its own with a
// token (main.ts's metrics server) and what the access log says: apps/api-e2e's metrics.e2e-spec.ts.

let petstore: InProcessApp;
beforeAll(async () => {
  petstore = await startInProcessApp();
});
afterAll(() => petstore?.close());

/** Scrapes /metrics and parses it as Prometheus text, so that a malformed exposition fails the test. */
async function scrape() {
  const response = await call(petstore, 'GET', '/metrics', { auth: false });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  // prom-client writes a gauge with no samples since the last scrape (the event-loop lag) as `Nan`,
  // which Prometheus reads; prom2javascript reads no NaN at all. No assertion looks at those
  // values, so they are read as 0 rather than dropped.
  const text = response.text.replace(/ Nan$/gim, ' 0');
  return getMetricsFromIterator(text.split('\n')[Symbol.iterator]());
}

describe('GET /metrics', () => {
  it("exposes prom-client's process and runtime metrics", async () => {
    const metrics = await scrape();
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(metrics[name]?.data.length).toBeGreaterThan(0);
    }
  });

  it('times requests by route template, method and status class, never by raw URL or key', async () => {
    // How much this test's own requests add to each series: at least one each.
    const counts = async () => {
      const histogram = (await scrape())['petstore_http_request_duration_seconds'];
      expect(histogram?.type).toBe('histogram');
      return histogram.data as PromHistogramData[];
    };
    const countOf = (samples: PromHistogramData[], labels: Record<string, string>) =>
      samples
        .filter((sample) => Object.entries(labels).every(([name, value]) => sample.labels[name] === value))
        .reduce((sum, sample) => sum + sample.count, 0);
    const mine = [
      { route: '/v1/pets/:petId', method: 'GET', status_class: '4xx' },
      { route: '/v1/pets', method: 'GET', status_class: '2xx' },
      { route: 'unmatched', method: 'GET', status_class: '4xx' },
    ];
    const before = await counts();
    await expectNoPetWithId(petstore, 987654321n);
    expect((await call(petstore, 'GET', '/v1/pets/987654321')).status).toBe(404);
    expect((await call(petstore, 'GET', '/v1/pets?limit=1')).status).toBe(200);
    expect((await call(petstore, 'GET', '/no/such/route/42', { contract: false })).status).toBe(404);
    const after = await counts();

    const series = after.map((sample) => sample.labels);
    expect(series).toEqual(expect.arrayContaining(mine));
    for (const labels of mine) expect({ labels, added: countOf(after, labels) > countOf(before, labels) }).toEqual({ labels, added: true });
    for (const labels of series) expect(Object.keys(labels).sort()).toEqual(['method', 'route', 'status_class']);
    expect(JSON.stringify(series)).not.toMatch(/987654321|\/42|in-process-test-key/);
  });

  (onPostgres() ? it : it.skip)('reports the database pool: connections in use and idle, and queries waiting', async () => {
    const metrics = await scrape();
    const states = (metrics['petstore_db_pool_connections']?.data as PromData[]).map((sample) => sample.labels.state);
    expect(states.sort()).toEqual(['idle', 'in_use']);
    expect((metrics['petstore_db_pool_waiting_requests']?.data as PromData[])[0].value).toBeGreaterThanOrEqual(0);
  });
});

/** The pool's gauges are PostgreSQL's (node-postgres's pool): the in-process suite runs there with TEST_DATABASE_URL. */
function onPostgres(): boolean {
  return process.env.TEST_DATABASE_URL !== undefined;
}
