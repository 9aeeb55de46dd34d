import { getMetricsFromIterator, type PromData, type PromHistogramData, type PromMetrics } from 'prom2javascript';
import { baseUrl, call, expectNoPetWithId, instanceUrls, target } from './support/api';
import { AUTH, databaseEnv, freePort, outputOnceItShows, type RunningServer, startServer, TEST_API_KEY } from './support/server';

/** Scrapes /metrics and parses it as Prometheus text, so that a malformed exposition fails the test. */
async function scrape(url = `${baseUrl()}/metrics`, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  // prom-client writes a gauge with no samples since the last scrape (the event-loop lag) as `Nan`,
  // which Prometheus reads; prom2javascript reads no NaN at all. No assertion looks at those
  // values, so they are read as 0 rather than dropped.
  const text = (await response.text()).replace(/ Nan$/gim, ' 0');
  return getMetricsFromIterator(text.split('\n')[Symbol.iterator]());
}

/** The samples of every instance behind the shared URL, which a test's requests may each have reached (the pooled target). */
async function scrapeInstances(): Promise<PromMetrics> {
  const merged: PromMetrics = {};
  for (const metrics of await Promise.all(instanceUrls().map((url) => scrape(`${url}/metrics`)))) {
    for (const [name, metric] of Object.entries(metrics)) {
      merged[name] = merged[name] ? { ...metric, data: [...merged[name].data, ...metric.data] as typeof metric.data } : metric;
    }
  }
  return merged;
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
    // The shared server's histogram counts every file's requests: this test looks at how much
    // its own requests add to each series, at least one each (others may add more meanwhile),
    // summed over the instances behind the shared URL, which its requests may each have reached.
    const counts = async () => {
      const histogram = (await scrapeInstances())['petstore_http_request_duration_seconds'];
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
    await expectNoPetWithId(987654321n);
    expect((await call('GET', '/v1/pets/987654321')).status).toBe(404);
    expect((await call('GET', '/v1/pets?limit=1')).status).toBe(200);
    expect((await call('GET', '/no/such/route/42', { contract: false })).status).toBe(404);
    const after = await counts();

    const series = after.map((sample) => sample.labels);
    expect(series).toEqual(expect.arrayContaining(mine));
    for (const labels of mine) expect({ labels, added: countOf(after, labels) > countOf(before, labels) }).toEqual({ labels, added: true });
    for (const labels of series) expect(Object.keys(labels).sort()).toEqual(['method', 'route', 'status_class']);
    expect(JSON.stringify(series)).not.toMatch(/987654321|\/42|e2e-test-key/);
  });

  (target !== 'pglite' ? it : it.skip)('reports the database pool: connections in use and idle, and queries waiting', async () => {
    const metrics = await scrape();
    const states = (metrics['petstore_db_pool_connections']?.data as PromData[]).map((sample) => sample.labels.state);
    expect(states.sort()).toEqual(['idle', 'in_use']);
    expect((metrics['petstore_db_pool_waiting_requests']?.data as PromData[])[0].value).toBeGreaterThanOrEqual(0);
  });
});

describe('/metrics for the platform only', () => {
  const token = 'scrape-token-0123456789';
  let server: RunningServer;
  let metricsUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    server = await startServer({ ...databaseEnv(target), METRICS_PORT: String(port), METRICS_TOKEN: token, LOG_LEVEL: 'info' });
  });

  afterAll(async () => {
    await server.stop();
  });

  it('is served on its own port with the token, and not on the API port', async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    expect((await scrape(metricsUrl, { authorization: `Bearer ${token}` }))['process_cpu_seconds_total']).toBeDefined();
  });

  it.each([
    ['no token', {}],
    ['a wrong token', { authorization: 'Bearer scrape-token-wrong-0000' }],
  ])('answers 401 with the Error body for %s', async (_case, headers: Record<string, string>) => {
    const response = await fetch(metricsUrl, { headers });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String), status: 401 });
  });

  it('names the key in the access log line, never its secret', async () => {
    await fetch(`${server.url}/v1/pets?limit=1`, { headers: AUTH });
    const output = await outputOnceItShows(server, '/v1/pets?limit=1');
    const line = output.split('\n').find((text) => text.includes('/v1/pets?limit=1'));
    expect(output).toMatch(/key: "env-1"/);
    expect(line ?? '').not.toContain(TEST_API_KEY);
  });
});
