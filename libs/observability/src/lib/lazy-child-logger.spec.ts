import Fastify from 'fastify';
import { Writable } from 'node:stream';
import { lazyChildLoggerFactory } from './lazy-child-logger';

function fastifyLoggingTo(lines: string[], level: string) {
  const stream = new Writable({
    write: (chunk, _encoding, done) => {
      lines.push(String(chunk));
      done();
    },
  });
  return Fastify({ logger: { level, stream }, disableRequestLogging: true, childLoggerFactory: lazyChildLoggerFactory });
}

describe('lazyChildLoggerFactory', () => {
  it("writes a request's lines with its id, as pino's child would", async () => {
    const lines: string[] = [];
    const fastify = fastifyLoggingTo(lines, 'info');
    fastify.get('/', async (request) => {
      request.log.warn({ reason: 'test' }, 'something happened');
      return { ok: true };
    });
    const response = await fastify.inject({ method: 'GET', url: '/', headers: { 'request-id': 'x' } });
    expect(response.statusCode).toBe(200);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ level: 40, reqId: expect.any(String), reason: 'test', msg: 'something happened' }),
    ]);
  });

  it('makes no child for a request that logs nothing, and honours the level', async () => {
    const lines: string[] = [];
    const fastify = fastifyLoggingTo(lines, 'warn');
    const child = jest.spyOn(fastify.log, 'child');
    fastify.get('/', async (request) => {
      request.log.info('below the level');
      return { level: request.log.level };
    });
    fastify.get('/quiet', async () => ({ ok: true }));
    await fastify.inject({ method: 'GET', url: '/quiet' });
    expect(child).not.toHaveBeenCalled();
    expect((await fastify.inject({ method: 'GET', url: '/' })).json()).toEqual({ level: 'warn' });
    expect(lines).toEqual([]);
  });
});
