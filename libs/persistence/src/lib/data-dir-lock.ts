// Why our own lock, not proper-lockfile: docs/decisions/0006-database-access-public-api.md
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@petstore/data-dir';
import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Raised when another live process already holds the embedded database's directory. */
export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(`The data directory ${dataDir} is in use by process ${pid}; the embedded database allows one process at a time`);
    this.name = 'DataDirInUseError';
  }
}

/** Looks at the lock this often, waiting out another process's takeover of a stale one: ~2 s in all. */
const MAX_ATTEMPTS = 100;
const TAKEOVER_WAIT_MS = 20;

/** Takes the data directory for this process (PGlite is single-process; two writers corrupt it); a dead holder's lock is taken over. */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const lockFile = join(dataDir, 'petstore.lock');
  // Only while the lock is this process's: released twice, it must not remove a later holder's.
  const release = () => {
    if (lockHolder(lockFile) === process.pid) rmSync(lockFile, { force: true });
  };
  let holder: ReturnType<typeof lockHolder> = 'gone';
  let taker: number | undefined;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    if (linkedIntoPlace(lockFile)) return release;
    holder = lockHolder(lockFile);
    if (holder === 'gone') continue;
    if (holder === process.pid) return release;
    if (holder !== undefined && isRunning(holder)) throw new DataDirInUseError(dataDir, holder);
    const outcome = takeOverStaleLock(lockFile);
    if (outcome === 'taken') return release;
    taker = outcome === 'changed' ? undefined : outcome;
    if (taker !== undefined) pause(TAKEOVER_WAIT_MS);
  }
  const held = typeof holder === 'number' ? `process ${holder}, which is not running,` : 'no process';
  throw new Error(
    `The data directory ${dataDir} could not be locked: ` +
      (taker === undefined
        ? 'other processes kept taking and leaving its lock'
        : `its lock names ${held} and process ${taker} is still taking it over`),
  );
}

/** Writes our lock whole, then hard-links it to `lockFile` (never read half-written, unlike create-then-write); false if taken. */
function linkedIntoPlace(lockFile: string): boolean {
  const written = writeOwnLock(lockFile);
  try {
    linkSync(written, lockFile);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(written, { force: true });
  }
}

/** Replaces a stale lock while holding `<lock>.takeover`: 'taken', 'changed' (look again), or the live taker's pid. */
function takeOverStaleLock(lockFile: string): 'taken' | 'changed' | number {
  const takeover = `${lockFile}.takeover`;
  const entry = enterTakeover(takeover);
  if (entry === undefined) return clearEndedTakeover(takeover) ?? 'changed';
  try {
    // One process at a time: only the takeover's holder replaces the lock, after reading it again.
    if (!isStale(lockHolder(lockFile))) return 'changed';
    const written = writeOwnLock(lockFile);
    try {
      renameSync(written, lockFile);
    } catch (error) {
      rmSync(written, { force: true });
      throw error;
    }
    return 'taken';
  } finally {
    rmSync(entry, { force: true });
    removeIfEmpty(takeover);
  }
}

/** Renames a staged directory holding our entry onto the takeover (fails while another holds it): the entry's path, or undefined. */
function enterTakeover(takeover: string): string | undefined {
  const unique = `${process.pid}.${randomUUID()}`;
  const staged = `${takeover}.${unique}`;
  mkdirSync(staged, { mode: PRIVATE_DIR_MODE });
  try {
    writeFileSync(join(staged, unique), '', { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    renameSync(staged, takeover);
    return join(takeover, unique);
  } catch (error) {
    rmSync(staged, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return undefined;
    throw error;
  }
}

/** The pid of the live process holding the takeover; else removes the entries of ended ones, then the takeover if empty. */
function clearEndedTakeover(takeover: string): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync(takeover);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  for (const name of entries) {
    const pid = Number.parseInt(name, 10);
    if (pid > 0 && isRunning(pid)) return pid;
    rmSync(join(takeover, name), { recursive: true, force: true });
  }
  removeIfEmpty(takeover);
  return undefined;
}

function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
  }
}

function writeOwnLock(lockFile: string): string {
  const written = `${lockFile}.${process.pid}.${randomUUID()}`;
  writeFileSync(written, String(process.pid), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  return written;
}

function isStale(holder: ReturnType<typeof lockHolder>): boolean {
  return holder === undefined || (typeof holder === 'number' && holder !== process.pid && !isRunning(holder));
}

/** The pid in a lock file; undefined when none, 'gone' without the file. An unreadable lock raises, never taken for stale. */
function lockHolder(lockFile: string): number | undefined | 'gone' {
  let text: string;
  try {
    text = readFileSync(lockFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
