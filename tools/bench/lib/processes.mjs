// Child processes of the bench: every one is tracked so that an error, Ctrl-C or a normal
// exit never leaves a server or a load generator running behind us.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const live = new Set();
const OUTPUT_TAIL_CHARS = 8_000;

// Synchronous last resort: 'exit' handlers cannot wait for a graceful stop.
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Spawns a tracked child; its output is kept (the last few KB) for error messages. */
export function spawnTracked(command, args, { env, cwd } = {}) {
  const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  child.output = '';
  const keep = (chunk) => (child.output = (child.output + chunk).slice(-OUTPUT_TAIL_CHARS));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.exited = new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  }).finally(() => live.delete(child));
  return child;
}

/** Runs a command to completion and returns its stdout; rejects with its output if it fails. */
export async function runCommand(command, args, options) {
  const child = spawnTracked(command, args, options);
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  const { code, error } = await child.exited;
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${error?.message ?? `exit ${code}`}):\n${child.output}`);
  return stdout;
}

/** SIGTERM, then SIGKILL if the child has not exited within `graceMs`. */
export async function stop(child, graceMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

export async function stopAll() {
  await Promise.all([...live].map((child) => stop(child)));
}

/**
 * `work` made to run once, whoever asks first: the bench when it ends, or an interruption (Ctrl-C,
 * SIGTERM, its terminal closed, or a reader that stops reading, as `| head`), which then exits.
 * None of these may leave a database or a server behind. `started()` tells whether it has begun.
 */
export function cleanUpWhenInterrupted(work) {
  let cleaning;
  const cleanup = () => (cleaning ??= work());
  cleanup.started = () => cleaning !== undefined;
  const end = (why, code) => {
    console.error(`\n${why}: cleaning up`);
    void cleanup().finally(() => process.exit(code));
  };
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ]) {
    process.once(signal, () => end(signal, code));
  }
  process.stdout.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
    end('output closed', 141);
  });
  return cleanup;
}

export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Polls `url` until it answers 200 and returns the milliseconds since `since`. Polls every
 * 10 ms so that start-up times are measured to about that precision.
 */
export async function waitFor200(url, { headers, child, since, timeoutMs = 60_000 }) {
  const deadline = since + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`process exited (${child.exitCode ?? child.signalCode}) before ${url} answered 200:\n${child.output}`);
    }
    try {
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - since;
    } catch {
      // Not listening yet.
    }
    await sleep(10);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms:\n${child.output}`);
}

/** Resident set size of a process in KiB, from /proc/<pid>/status. */
export function rssKiB(pid) {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : undefined;
}

/** CPU time a process has used so far, user and system, in microseconds (Linux: /proc, clock ticks of 10 ms). */
export function cpuMicros(pid) {
  // The fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Samples a process's RSS every 200 ms until the returned function is called, which gives the peak. */
export function sampleRss(pid) {
  let peak = rssKiB(pid) ?? 0;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssKiB(pid) ?? 0);
    } catch {
      // The process is gone; the peak so far stands.
    }
  }, 200);
  return () => {
    clearInterval(timer);
    return peak;
  };
}
