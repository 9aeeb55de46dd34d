import Fastify from 'fastify';
import { startTracing, stopTracing, traceRoutes, tracingRequested } from './tracing';

describe('tracingRequested: an OTEL_* variable turns tracing on', () => {
  it.each([
    ['the endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }],
    ['the service name alone', { OTEL_SERVICE_NAME: 'petstore' }],
    ['OTEL_SDK_DISABLED, which the SDK itself then reads', { OTEL_SDK_DISABLED: 'true' }],
  ])('asks for it with %s', (_case, env) => {
    expect(tracingRequested({ PATH: '/usr/bin', ...env })).toBe(true);
  });

  it.each([
    ['no OTEL_* variable', { PATH: '/usr/bin', PORT: '3000', MY_OTEL_ENDPOINT: 'x' }],
    ['OTEL_* variables that are empty or blank', { OTEL_SERVICE_NAME: '', OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }],
  ])('leaves it off with %s', (_case, env) => {
    expect(tracingRequested(env)).toBe(false);
  });
});

describe('tracing off', () => {
  it('adds no hook to the requests and has nothing to flush', async () => {
    startTracing({ PATH: '/usr/bin' });
    const fastify = Fastify();
    const addHook = jest.spyOn(fastify, 'addHook');
    traceRoutes(fastify);
    expect(addHook).not.toHaveBeenCalled();
    const warn = jest.fn();
    await expect(stopTracing(warn)).resolves.toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
    await fastify.close();
  });
});
