import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { relative, resolve } from 'node:path';
import { COMMITTED_DOCUMENT_FILE } from './document';

const ROOT = resolve(__dirname, '../../../..');

// Prism reads JSON into JavaScript numbers and so flags int64 values above 2^53 as out of
// range; they are valid (format int64), and the suite's own validator checks them exactly.
const PRISM_NUMBER_LIMIT = /must be [<>]= -?9007199254740991/;
/** Prism's start, which a loaded machine slows down. */
const START_TIMEOUT_MS = 45_000;
/** After SIGTERM, before SIGKILL. */
const STOP_GRACE_MS = 5_000;

export interface RunningPrism {
  readonly url: string;
  /** Stops Prism (SIGKILL after a grace) and returns the response violations it reported. */
  stop(): Promise<string[]>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * Starts Stoplight Prism as a validating proxy in front of `upstream` (which ends in /v1), built
 * from the committed OpenAPI document. Request violations are expected (tests send bad requests
 * on purpose); response violations mean the service broke its contract. Prism is stopped if it
 * does not start, and whenever `stop` is called, killed if it does not go.
 */
export async function startPrism(upstream: string): Promise<RunningPrism> {
  const port = await freePort();
  const cli = resolve(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
  const prism: ChildProcess = spawn(
    process.execPath,
    [cli, 'proxy', relative(ROOT, COMMITTED_DOCUMENT_FILE), upstream, '-p', String(port), '-h', '127.0.0.1'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  prism.stdout?.on('data', (chunk) => (log += chunk));
  prism.stderr?.on('data', (chunk) => (log += chunk));
  const exited = new Promise<void>((done) => prism.once('exit', () => done()));
  // Should the test process exit without stopping it (a crash, a worker killed), Prism goes too.
  const killNow = () => prism.kill('SIGKILL');
  process.once('exit', killNow);
  void exited.then(() => process.removeListener('exit', killNow));
  const stop = async () => {
    if (prism.exitCode === null && prism.signalCode === null) {
      prism.kill('SIGTERM');
      const killer = setTimeout(() => prism.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(killer);
    }
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!log.includes('Prism is listening')) {
    if (Date.now() > deadline || prism.exitCode !== null) {
      await stop();
      throw new Error(`Prism did not start:\n${log}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await stop();
      // Each violation with the request it belongs to.
      let request = '';
      const violations: string[] = [];
      for (const line of log.split('\n')) {
        if (line.includes('Request received')) request = line.replace(/^.*\[HTTP SERVER\] /, '').replace(/ ℹ.*$/, '');
        if (line.includes('Violation: response') && !PRISM_NUMBER_LIMIT.test(line))
          violations.push(`${request}: ${line.replace(/^.*Violation: /, '')}`);
      }
      return violations;
    },
  };
}
