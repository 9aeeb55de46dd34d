import { getMetricsFromIterator, type PromData, type PromHistogramData } from 'prom2javascript';
import { baseUrl, call, target } from './support/api';

/** Scrapes /metrics and parses it as Prometheus text, so that a malformed exposition fails the test. */
async function scrape(url = `${baseUrl()}/metrics`, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return getMetricsFromIterator((await response.text()).split('\n')[Symbol.iterator]());
}

describe('GET /metrics', () => {
  it("exposes prom-client's process and runtime metrics", async () => {
    const metrics = await scrape();
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      expect(metrics[name]?.data.length).toBeGreaterThan(0);
    }
  });

  it('times requests by route template, method and status class, never by raw URL or key', async () => {
    await call('GET', '/v1/pets/987654321');
    await call('GET', '/v1/pets?limit=1');
    await call('GET', '/no/such/route/42', { contract: false });
    const histogram = (await scrape())['petstore_http_request_duration_seconds'];
    expect(histogram?.type).toBe('histogram');
    const series = (histogram.data as PromHistogramData[]).map((sample) => sample.labels);
    expect(series).toEqual(
      expect.arrayContaining([
        { route: '/v1/pets/:petId', method: 'GET', status_class: '4xx' },
        { route: '/v1/pets', method: 'GET', status_class: '2xx' },
        { route: 'unmatched', method: 'GET', status_class: '4xx' },
      ]),
    );
    for (const labels of series) expect(Object.keys(labels).sort()).toEqual(['method', 'route', 'status_class']);
    expect(JSON.stringify(series)).not.toMatch(/987654321|\/42|e2e-test-key/);
    const pets = (histogram.data as PromHistogramData[]).find((sample) => sample.labels.route === '/v1/pets' && sample.labels.status_class === '2xx');
    expect(pets?.count).toBeGreaterThan(0);
  });

  (target === 'postgres' ? it : it.skip)('reports the database pool: connections in use and idle, and queries waiting', async () => {
    const metrics = await scrape();
    const states = (metrics['petstore_db_pool_connections']?.data as PromData[]).map((sample) => sample.labels.state);
    expect(states.sort()).toEqual(['idle', 'in_use']);
    expect((metrics['petstore_db_pool_waiting_requests']?.data as PromData[])[0].value).toBeGreaterThanOrEqual(0);
  });
});
