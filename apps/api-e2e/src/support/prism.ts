import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from './server';

const ROOT = resolve(__dirname, '../../../..');

// Prism reads JSON into JavaScript numbers and so flags int64 values above 2^53 as out of
// range; they are valid (format int64), and the suite's own validator checks them exactly.
const PRISM_NUMBER_LIMIT = /must be [<>]= -?9007199254740991/;

export interface RunningPrism {
  readonly url: string;
  /** Stops Prism and returns the response violations it reported. */
  stop(): Promise<string[]>;
}

/**
 * Starts Stoplight Prism as a validating proxy in front of `upstream` (which ends in /v1),
 * built from the committed OpenAPI document. Request violations are expected (the suite sends
 * bad requests on purpose); response violations mean the service broke its contract.
 */
export async function startPrism(upstream: string): Promise<RunningPrism> {
  const port = await freePort();
  const prism: ChildProcess = spawn(
    process.execPath,
    [
      resolve(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js'),
      'proxy',
      'openapi/petstore.openapi.json',
      upstream,
      '-p',
      String(port),
      '-h',
      '127.0.0.1',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  prism.stdout?.on('data', (chunk) => (log += chunk));
  prism.stderr?.on('data', (chunk) => (log += chunk));
  const deadline = Date.now() + 30_000;
  while (!log.includes('Prism is listening')) {
    if (Date.now() > deadline || prism.exitCode !== null) throw new Error(`Prism did not start:\n${log}`);
    await new Promise((done) => setTimeout(done, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      prism.kill();
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
