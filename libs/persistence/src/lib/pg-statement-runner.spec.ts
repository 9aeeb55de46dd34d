import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { Pool } from 'pg';
import { StatementOutcomeUnknownError } from './database-errors';
import { DEADLINE_CHECK_MS, PgStatementRunner } from './pg-statement-runner';

// A stand-in PostgreSQL server that speaks only what these tests need of the protocol: it
// accepts a session, takes statements and never answers them; it records each cancel request
// and, when `honoursCancel`, ends the statement being cancelled with 57014 as PostgreSQL does.
const CANCEL_REQUEST_CODE = 80877102;
const BACKEND = { processId: 4242, secret: 0x5ec7e7 };

function message(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
}

const int32s = (...values: number[]) =>
  Buffer.concat(values.map((value) => Buffer.from([0, 0, 0, 0].map((_, i) => (value >>> (24 - 8 * i)) & 0xff))));
const READY = message('Z', Buffer.from('I'));
const SESSION = Buffer.concat([message('R', int32s(0)), message('K', int32s(BACKEND.processId, BACKEND.secret)), READY]);
const CANCELLED = Buffer.concat([message('E', Buffer.from('SERROR\0VERROR\0C57014\0Mcanceling statement due to user request\0\0')), READY]);

class SilentPostgres {
  readonly cancels: { processId: number; secret: number }[] = [];
  honoursCancel = false;
  private readonly sessions: Socket[] = [];
  private readonly server: Server = createServer((socket) => this.accept(socket));

  async start(): Promise<number> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return (this.server.address() as { port: number }).port;
  }

  async stop(): Promise<void> {
    for (const session of this.sessions) session.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(socket: Socket): void {
    socket.once('data', (first) => {
      if (first.length >= 16 && first.readInt32BE(4) === CANCEL_REQUEST_CODE) {
        this.cancels.push({ processId: first.readInt32BE(8), secret: first.readInt32BE(12) });
        if (this.honoursCancel) for (const session of this.sessions) session.write(CANCELLED);
        socket.end();
        return;
      }
      this.sessions.push(socket);
      socket.write(SESSION);
    });
    socket.on('error', () => undefined);
  }
}

describe('PgStatementRunner', () => {
  const deadlines = { connectMs: 1000, serverMs: 100, answerMs: 100, cancelGraceMs: 150 };
  let postgres: SilentPostgres;
  let pool: Pool;
  let runner: PgStatementRunner;

  beforeEach(async () => {
    postgres = new SilentPostgres();
    const port = await postgres.start();
    pool = new Pool({ host: '127.0.0.1', port, user: 'test', database: 'test', max: 1 });
    runner = new PgStatementRunner(pool, deadlines);
  });

  afterEach(async () => {
    runner.close();
    await pool.end();
    await postgres.stop();
  });

  it('cancels a statement past its deadline, and fails it with 57014 when the server honours the cancel; the connection is kept', async () => {
    postgres.honoursCancel = true;
    const started = performance.now();
    await expect(runner.query({ name: 'sleepy', text: 'SELECT pg_sleep(10)' }, [])).rejects.toMatchObject({ code: '57014' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(deadlines.answerMs);
    // 57014, not an unknown outcome: the cancel answered it (the bound leaves a loaded machine a second).
    expect(performance.now() - started).toBeLessThan(deadlines.answerMs + deadlines.cancelGraceMs + 1000);
    expect(postgres.cancels).toEqual([BACKEND]);
    expect(pool.totalCount).toBe(1);
  });

  it('drops the connection when not even the cancel is answered: the outcome is unknown', async () => {
    const started = performance.now();
    const failure = await runner.query({ name: 'lost', text: 'INSERT INTO pets DEFAULT VALUES' }, []).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StatementOutcomeUnknownError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(deadlines.answerMs + deadlines.cancelGraceMs);
    expect(performance.now() - started).toBeLessThan(deadlines.answerMs + deadlines.cancelGraceMs + 2 * DEADLINE_CHECK_MS + 1000);
    expect(postgres.cancels).toEqual([BACKEND]);
    // Never handed out again: the pool holds no backend that may still be running the statement.
    expect(pool.totalCount).toBe(0);
  });

  // pg 8.23 copies each config's own properties, descriptors and all, on every query (docs/performance.md).
  it("hands pg a named statement whose name and text pg does not copy per query: they are the config's by inheritance", async () => {
    postgres.honoursCancel = true;
    const copy = jest.spyOn(Object, 'getOwnPropertyDescriptors');
    try {
      await runner.query({ name: 'sleepy', text: 'SELECT pg_sleep($1)' }, [10]).catch(() => undefined);
      expect(postgres.cancels).toEqual([BACKEND]);
      const copied = copy.mock.calls.flatMap(([config]) => Object.keys(config as object));
      expect(copied).not.toContain('name');
      expect(copied).not.toContain('text');
    } finally {
      copy.mockRestore();
    }
  });
});
