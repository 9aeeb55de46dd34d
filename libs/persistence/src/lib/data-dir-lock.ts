import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@petstore/core';
import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Raised when another live process already holds the embedded database's directory. */
export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(`The data directory ${dataDir} is in use by process ${pid}; the embedded database allows one process at a time`);
    this.name = 'DataDirInUseError';
  }
}

/** Each round either takes the lock, finds it held, or moves a stale one aside: a few suffice unless others keep racing. */
const MAX_ATTEMPTS = 20;

/**
 * Takes the embedded database's directory for this process. PGlite is single-process:
 * two writers on one directory would corrupt it, so a second process is refused. A lock
 * left by a process that no longer runs is taken over. A directory it has to create is
 * private (mode 0700); an existing one is made private by preparePrivateDataDir beforehand.
 *
 * Taking the lock is atomic: the lock file is written whole under a name of its own, then
 * hard-linked into place, which fails if a lock is there (so no process ever reads a lock
 * half written, as with an exclusive create then a write). A stale lock is renamed aside
 * first, under a unique name: of processes taking it over at once, one renames it, the others
 * find it gone, and then one of them wins the link.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const lockFile = join(dataDir, 'petstore.lock');
  const release = () => rmSync(lockFile, { force: true });
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    if (linkedIntoPlace(lockFile)) return release;
    const holder = lockHolder(lockFile);
    if (holder === 'gone') continue;
    if (holder === process.pid) return release;
    if (holder !== undefined && isRunning(holder)) throw new DataDirInUseError(dataDir, holder);
    moveStaleAside(lockFile);
  }
  throw new Error(`The data directory ${dataDir} could not be locked: other processes kept taking and leaving its lock`);
}

/** Writes this process's lock under a unique name and links it to `lockFile`; false when a lock is there. */
function linkedIntoPlace(lockFile: string): boolean {
  const written = `${lockFile}.${process.pid}.${randomUUID()}`;
  writeFileSync(written, String(process.pid), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
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
 * Renames a lock judged stale to a unique name, then removes it. Should another process have
 * replaced it by its own live lock in between, that one was moved: it is linked back.
 */
function moveStaleAside(lockFile: string): void {
  const aside = `${lockFile}.stale.${randomUUID()}`;
  try {
    renameSync(lockFile, aside);
  } catch (error) {
    // Another process moved it first.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const moved = lockHolder(aside);
    if (typeof moved === 'number' && moved !== process.pid && isRunning(moved)) linkSync(aside, lockFile);
  } catch (error) {
    // EEXIST: yet another process took the lock meanwhile; it holds it now.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(aside, { force: true });
  }
}

/** The pid in a lock file; undefined when it holds none, 'gone' when there is no such file. */
function lockHolder(lockFile: string): number | undefined | 'gone' {
  let text: string;
  try {
    text = readFileSync(lockFile, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
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
