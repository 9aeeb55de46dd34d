import { call, expectError } from '../testing/http';
import { type InProcessApp, startInProcessApp } from '../testing/in-process-app';

// In production, /metrics is served only where the operator said who may scrape it: on a port of
// its own (METRICS_PORT) or with a token (METRICS_TOKEN). Without either, nowhere, and the start
// says so. The rule for each combination: libs/config's app-config.spec.ts; on its own port:
// apps/api-e2e's metrics.e2e-spec.ts.

describe('/metrics in production without METRICS_PORT or METRICS_TOKEN', () => {
  let petstore: InProcessApp;
  beforeAll(async () => {
    petstore = await startInProcessApp({ NODE_ENV: 'production' }, { logs: true });
  });
  afterAll(() => petstore?.close());

  it('is not served on the API port: 404, as any unknown path', async () => {
    expectError(await call(petstore, 'GET', '/metrics', { auth: false, contract: false }), 404, 'ROUTE_NOT_FOUND');
  });

  it('is named in a warning at start, with the two ways to serve it', () => {
    const warnings = petstore
      .logLines()
      .filter((line) => line.level === 40)
      .map((line) => String(line.msg));
    expect(warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^\/metrics is served nowhere:.*METRICS_PORT.*METRICS_TOKEN/)]));
  });
});
