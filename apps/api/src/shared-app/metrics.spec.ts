import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { getMetricsFromIterator, type PromData, type PromHistogramData } from 'prom2javascript';
import { committedDocument } from '../testing/document';
import { call, expectNoPetWithId } from '../testing/http';
import { AUTH, type InProcessApp, SHARED_APP_ENV, sharedApp } from '../testing/in-process-app';
import { sendRaw } from '../testing/raw-http';

// GET /metrics on the API port, on the real application in process. On a port of its own with a
// token (main.ts's metrics server) and what the access log says: apps/api-e2e's metrics.e2e-spec.ts.

const { HTTP_REQUEST_TIMEOUT_MS: REQUEST_TIMEOUT_MS, GIT_COMMIT } = SHARED_APP_ENV;

let petstore: InProcessApp;
beforeAll(async () => {
  petstore = await sharedApp();
});

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

/** A histogram's or counter's samples, and how many a label set counted in all. */
async function samplesOf(name: string, type: 'histogram' | 'counter') {
  const metric = (await scrape())[name];
  expect(metric?.type).toBe(type);
  return metric.data as (PromHistogramData & PromData)[];
}

/** The count of a histogram's samples with these labels, or the value of a counter's. */
function total(samples: (PromHistogramData & PromData)[], labels: Record<string, string>): number {
  return samples
    .filter((sample) => Object.entries(labels).every(([name, value]) => sample.labels[name] === value))
    .reduce((sum, sample) => sum + (sample.count ?? sample.value), 0);
}

/** Polls until `check` holds, for at most 5 s. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (const started = Date.now(); !(await check());) {
    if (Date.now() - started > 5000) throw new Error('not within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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

  it('counts the requests in flight, the scrape among them, until each is answered or its client goes away', async () => {
    const inFlight = async () => ((await scrape())['petstore_http_requests_in_flight']?.data as PromData[])[0].value;
    expect(await inFlight()).toBe(1);
    // A create whose body never comes: in flight until its client hangs up.
    const { port } = new URL(await petstore.listen());
    const client = connect(Number(port), '127.0.0.1');
    client.on('error', () => undefined);
    client.write(
      `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.authorization}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
    );
    await eventually(async () => (await inFlight()) === 2);
    client.destroy();
    await eventually(async () => (await inFlight()) === 1);
  });

  it('ends the duration buckets at the request time-out (HTTP_REQUEST_TIMEOUT_MS)', async () => {
    const [sample] = await samplesOf('petstore_http_request_duration_seconds', 'histogram');
    const bounds = Object.keys(sample.buckets)
      .filter((bound) => bound !== '+Inf')
      .map(Number)
      .sort((a, b) => a - b);
    expect(bounds.at(-1)).toBe(Number(REQUEST_TIMEOUT_MS) / 1000);
    expect(bounds.at(-2)).toBeGreaterThanOrEqual(2.5);
  });

  it('times each statement by its name, and by nothing else', async () => {
    const counted = async (statement: string) => total(await samplesOf('petstore_db_query_duration_seconds', 'histogram'), { statement });
    const names = ['pets_list', 'pets_list_by_status', 'pets_find_by_id', 'pets_insert'];
    const before = await Promise.all(names.map(counted));
    expect((await call(petstore, 'GET', '/v1/pets?limit=1')).status).toBe(200);
    expect((await call(petstore, 'GET', '/v1/pets?limit=1&status=sold')).status).toBe(200);
    const created = await call(petstore, 'POST', '/v1/pets', { json: { name: 'Timed', categoryId: 1 } });
    expect(created.status).toBe(201);
    expect((await call(petstore, 'GET', `/v1/pets/${(created.body as { id: number }).id}`)).status).toBe(200);
    const after = await Promise.all(names.map(counted));
    expect(Object.fromEntries(names.map((name, index) => [name, after[index] > before[index]]))).toEqual(
      Object.fromEntries(names.map((name) => [name, true])),
    );
    const samples = await samplesOf('petstore_db_query_duration_seconds', 'histogram');
    for (const { labels } of samples) {
      expect(Object.keys(labels)).toEqual(['statement']);
      expect(labels.statement).toMatch(/^[a-z_]+$/);
    }
  });

  it("counts every Error answer by its code, the document's codes each from zero, those Node and the router make included", async () => {
    const codes = async () => {
      const samples = await samplesOf('petstore_http_errors_total', 'counter');
      for (const { labels } of samples) expect(Object.keys(labels)).toEqual(['code']);
      return new Map(samples.map((sample) => [sample.labels.code, sample.value]));
    };
    const before = await codes();
    const documented = committedDocument().components?.schemas?.['ErrorCode'] as { enum: string[] };
    expect([...before.keys()].sort()).toEqual([...documented.enum].sort());

    const answers = [
      await call(petstore, 'GET', '/v1/pets', { auth: false }),
      await call(petstore, 'GET', '/v1/pets/987654321'),
      await call(petstore, 'GET', '/v1/pets?limit=0'),
      await call(petstore, 'GET', '/no/such/route', { contract: false }),
      // The router refuses an undecodable URL before any hook runs.
      await call(petstore, 'GET', '/v1/pets/%zz', { contract: false }),
    ].map((answer) => (answer.body as { code: string }).code);
    // Node's parser refuses a malformed request before Fastify sees it.
    const exchange = await sendRaw(await petstore.listen(), Buffer.from('GET / HTTP/1.1\r\nHost\r\n\r\n'), {
      method: 'GET',
      halfClose: false,
      timeoutMs: 5000,
    });
    if (exchange.kind !== 'answered') throw new Error(`Node did not answer the malformed request: ${exchange.kind}`);
    answers.push((JSON.parse(exchange.response.body.toString()) as { code: string }).code);

    const after = await codes();
    const added = Object.fromEntries(
      [...after].map(([code, value]) => [code, value - (before.get(code) ?? 0)] as const).filter(([, n]) => n !== 0),
    );
    const sent = answers.reduce<Record<string, number>>((counts, code) => ({ ...counts, [code]: (counts[code] ?? 0) + 1 }), {});
    expect(added).toEqual(sent);
    expect(new Set(answers).size).toBeGreaterThanOrEqual(4);
  });

  it('names the build: version, commit and Node.js', async () => {
    const [info, ...others] = (await scrape())['petstore_build_info']?.data as PromData[];
    const { version } = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8')) as { version: string };
    expect(others).toEqual([]);
    expect(info).toEqual(expect.objectContaining({ labels: { version, commit: GIT_COMMIT, node: process.version }, value: 1 }));
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
