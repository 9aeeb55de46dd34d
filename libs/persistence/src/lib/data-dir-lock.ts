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

/**
 * How many times a process looks at the lock, and how long it waits while another process takes
 * a stale lock over (a millisecond or so): two seconds of waiting in all before it gives up.
 */
const MAX_ATTEMPTS = 100;
const TAKEOVER_WAIT_MS = 20;

/**
 * Takes the embedded database's directory for this process. PGlite is single-process:
 * two writers on one directory would corrupt it, so a second process is refused. A lock
 * left by a process that no longer runs is taken over. A directory it has to create is
 * private (mode 0700); an existing one is made private by preparePrivateDataDir beforehand.
 *
 * Taking the lock is atomic: the lock file is written whole under a name of its own, then
 * hard-linked into place, which fails if a lock is there (so no process ever reads a lock
 * half written, as with an exclusive create then a write). A stale lock is replaced by one
 * process at a time (see takeOverStaleLock); the others wait for it, then find the lock live.
 */
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

/** Writes this process's lock under a unique name and links it to `lockFile`; false when a lock is there. */
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

/**
 * Replaces a stale lock by this process's, in the takeover directory `<lock>.takeover`: 'taken';
 * 'changed' when the lock or the takeover changed meanwhile (look again); or the pid of the live
 * process in the takeover. A takeover left by a process that has ended is cleared.
 *
 * Safe: only the takeover's holder replaces the lock, after reading it again, and it holds the takeover until it
 * leaves or ends: its entry's name is unique and removed only then, and rename and rmdir act only on an empty one.
 */
function takeOverStaleLock(lockFile: string): 'taken' | 'changed' | number {
  const takeover = `${lockFile}.takeover`;
  const entry = enterTakeover(takeover);
  if (entry === undefined) return clearEndedTakeover(takeover) ?? 'changed';
  try {
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

/**
 * Holds the takeover: a directory holding this process's entry, made aside, is renamed to it,
 * which fails if a takeover is held (a directory with an entry in it). The entry's path, or
 * undefined when another process holds the takeover.
 */
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

/** Removes a directory if it is empty and still there. */
function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
  }
}

/** Writes this process's lock, whole, under a unique name beside `lockFile`; returns that name. */
function writeOwnLock(lockFile: string): string {
  const written = `${lockFile}.${process.pid}.${randomUUID()}`;
  writeFileSync(written, String(process.pid), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  return written;
}

/** A lock no live process holds: there, and naming no pid, or the pid of a process that has ended. */
function isStale(holder: ReturnType<typeof lockHolder>): boolean {
  return holder === undefined || (typeof holder === 'number' && holder !== process.pid && !isRunning(holder));
}

/**
 * The pid in a lock file; undefined when it holds none, 'gone' when there is no such file. A lock
 * that cannot be read is not taken for stale: the error is raised.
 */
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
