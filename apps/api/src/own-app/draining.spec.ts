import { Drain } from '@petstore/observability';
import { type InProcessApp, startInProcessApp } from '../testing/in-process-app';

// The drain after SIGTERM as a load balancer's checks see it; the signal itself and the balancer: apps/api-e2e's
// lifecycle and rolling-deploy files.
describe('a draining instance', () => {
  let petstore: InProcessApp;
  beforeAll(async () => {
    petstore = await startInProcessApp({}, { logs: true });
    petstore.app.get(Drain).start(petstore.app.getHttpServer());
  });
  afterAll(() => petstore?.close());

  it('answers /readyz 503 with the Error body, logged by its message alone: no stack trace for every check of the drain', async () => {
    const response = await petstore.fastify.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    const body = response.json<{ code: string; message: string; status: number }>();
    expect(body).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('Shutting down'), status: 503 });
    const logged = petstore.logLines().filter((line) => line.msg === body.message);
    expect(logged).toHaveLength(1);
    expect(logged[0]).not.toHaveProperty('err');
  });
});
