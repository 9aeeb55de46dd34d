import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessLogController } from './access-log';

/** A request and its answer as requestCompleted sees them, and the lines it logged. */
function exchange(url: string) {
  const lines: Array<{ level: string; line: unknown; message: string }> = [];
  const log = {
    info: (line: unknown, message: string) => lines.push({ level: 'info', line, message }),
    error: (line: unknown, message: string) => lines.push({ level: 'error', line, message }),
  };
  const request = { method: 'GET', url, client: { name: 'client-1' } } as unknown as FastifyRequest;
  const reply = { statusCode: 200, elapsedTime: 1.5, log } as unknown as FastifyReply;
  return { request, reply, lines };
}

describe('AccessLogController', () => {
  it('logs one line per request with what the app adds, and a token from the query string redacted', () => {
    const byClient = (request: FastifyRequest) => ({ client: (request as FastifyRequest & { client: { name: string } }).client.name });
    const { request, reply, lines } = exchange('/v1/things?access_token=secret&limit=1');
    new AccessLogController(true, byClient).requestCompleted(null, request, reply);
    expect(lines).toEqual([
      {
        level: 'info',
        line: { method: 'GET', url: '/v1/things?access_token=[REDACTED]&limit=1', statusCode: 200, responseTime: 1.5, client: 'client-1' },
        message: 'request completed',
      },
    ]);
  });

  it('adds nothing of its own about who made the request', () => {
    const { request, reply, lines } = exchange('/v1/things');
    new AccessLogController(true).requestCompleted(null, request, reply);
    expect(lines[0].line).toEqual({ method: 'GET', url: '/v1/things', statusCode: 200, responseTime: 1.5 });
  });

  it('logs only errored requests when the level leaves out the per-request line', () => {
    const { request, reply, lines } = exchange('/v1/things');
    const controller = new AccessLogController(false);
    controller.requestCompleted(null, request, reply);
    const error = new Error('socket hang up');
    controller.requestCompleted(error, request, reply);
    expect(lines).toEqual([{ level: 'error', line: expect.objectContaining({ err: error }), message: 'request errored' }]);
  });
});
