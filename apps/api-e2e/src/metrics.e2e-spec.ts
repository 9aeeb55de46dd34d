import { getMetricsFromIterator } from 'prom2javascript';
import { describeOn, target } from './support/api';
import { AUTH, databaseEnv, freePort, outputOnceItShows, type RunningServer, startServer, TEST_API_KEY } from './support/server';

// /metrics on a port of its own, for the platform (main.ts), and the access log's line. On the API
// port, in process: apps/api/src/shared-app/metrics.spec.ts.

/** Scrapes /metrics and parses it as Prometheus text, so that a malformed exposition fails the test. */
async function scrape(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  // prom-client writes a gauge with no samples since the last scrape (the event-loop lag) as `Nan`,
  // which Prometheus reads; prom2javascript reads no NaN at all. No assertion looks at those
  // values, so they are read as 0 rather than dropped.
  const text = (await response.text()).replace(/ Nan$/gim, ' 0');
  return getMetricsFromIterator(text.split('\n')[Symbol.iterator]());
}

describeOn('pglite')('/metrics for the platform only', () => {
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
