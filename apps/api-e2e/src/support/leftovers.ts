import type { ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Nothing of a run is left behind: every folder a test makes is inside one root folder, which the
// global teardown removes, and every process the suite starts is recorded and stopped when its
// test file ends and, as a last resort, by the global teardown (or the exit of the main process),
// whether the tests passed, failed or timed out.

/** The run's root folder, made by the global set-up (set in the environment the workers inherit). */
export const TEMP_ROOT_VARIABLE = 'E2E_TEMP_ROOT';
/** Set to 1 to keep the root folder after the run (screenshots, logs, data directories). */
export const KEEP_VARIABLE = 'E2E_KEEP_TMP';
/** How long a process gets to go after SIGTERM before SIGKILL. */
export const STOP_GRACE_MS = 5_000;

/** Makes the run's root folder under the system's temporary directory (once per run). */
export function makeTempRoot(): string {
  process.env[TEMP_ROOT_VARIABLE] ??= mkdtempSync(join(tmpdir(), 'petstore-e2e-'));
  return process.env[TEMP_ROOT_VARIABLE];
}

function tempRoot(): string {
  const root = process.env[TEMP_ROOT_VARIABLE];
  if (!root) throw new Error(`${TEMP_ROOT_VARIABLE} is not set: the e2e global set-up did not run`);
  return root;
}

/** A new folder of the test's own inside the run's root folder, named `<prefix>-<random>`. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tempRoot(), `${prefix}-`));
}

const RECORDS = 'processes.jsonl';

/** A process as the root folder records it: its command line (its argv, NUL-separated) tells it from a later process with its pid. */
interface ProcessRecord {
  readonly pid: number;
  readonly group: boolean;
  readonly command: string;
}

/** The processes this process started and has not yet seen exit. */
const running = new Map<number, { child: ChildProcess; group: boolean }>();

/** Whether killTrackedNow is hooked to this process's exit: once, however often `running` empties and fills. */
let killsAtExit = false;

/**
 * Records a child process: in this process (stopped by stopTracked, and killed at its exit), and in
 * the run's root folder (killed by the global teardown if still running). `group`: the child leads
 * a process group of its own (spawned detached), which is stopped as a whole.
 */
export function track(child: ChildProcess, { group = false }: { group?: boolean } = {}): void {
  const pid = child.pid;
  if (pid === undefined) return;
  running.set(pid, { child, group });
  child.once('exit', () => running.delete(pid));
  const record: ProcessRecord = { pid, group, command: child.spawnargs.join('\0') };
  appendFileSync(join(tempRoot(), RECORDS), `${JSON.stringify(record)}\n`);
  if (!killsAtExit) process.once('exit', killTrackedNow);
  killsAtExit = true;
}

/** Whatever this process started and is still running: SIGTERM, then SIGKILL after the grace. */
export async function stopTracked(graceMs = STOP_GRACE_MS): Promise<void> {
  await Promise.all(
    [...running.entries()].map(async ([pid, { child, group }]) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      signal(pid, group, 'SIGTERM');
      const timer = setTimeout(() => signal(pid, group, 'SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }),
  );
}

function killTrackedNow(): void {
  for (const [pid, { group }] of running) signal(pid, group, 'SIGKILL');
}

function signal(pid: number, group: boolean, name: NodeJS.Signals): void {
  try {
    process.kill(group ? -pid : pid, name);
  } catch {
    // Gone already.
  }
}

/** The command line of a running process (its argv, NUL-separated), or undefined when it has exited or there is no /proc. */
function commandLineOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0$/, '');
  } catch {
    return undefined;
  }
}

/**
 * The recorded processes that may still run: a process that still runs its recorded command (a
 * pid reused by another command is left alone), a process group whatever became of its leader.
 */
function recordedAlive(root: string): ProcessRecord[] {
  const file = join(root, RECORDS);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ProcessRecord)
    .filter(({ pid, group, command }) => group || commandLineOf(pid) === command);
}

/** Whether a recorded process, or any process of a recorded group, still runs. */
function isAlive({ pid, group, command }: ProcessRecord): boolean {
  if (!group) return commandLineOf(pid) === command;
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops every recorded process that still runs: SIGTERM, SIGKILL after the grace. Returns how many
 * were still running.
 */
export async function stopRecorded(root: string, graceMs = STOP_GRACE_MS): Promise<number> {
  const alive = recordedAlive(root).filter(isAlive);
  for (const { pid, group } of alive) signal(pid, group, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && alive.some(isAlive)) await new Promise((done) => setTimeout(done, 50));
  for (const record of alive) if (isAlive(record)) signal(record.pid, record.group, 'SIGKILL');
  return alive.length;
}

/** The same, at once (SIGKILL), for a main process that is exiting. */
export function killRecordedNow(root: string): void {
  for (const { pid, group } of recordedAlive(root)) signal(pid, group, 'SIGKILL');
}

/** Removes the run's root folder, unless E2E_KEEP_TMP=1 (then says where it is). */
export function removeTempRoot(root: string): void {
  if (process.env[KEEP_VARIABLE] === '1') {
    console.log(`\nThe e2e run's files are kept in ${root} (${KEEP_VARIABLE}=1)`);
    return;
  }
  rmSync(root, { recursive: true, force: true });
}
