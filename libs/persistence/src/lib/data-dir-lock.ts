import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@petstore/data-dir';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Raised when another live process already holds the embedded database's directory. */
export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(`The data directory ${dataDir} is in use by process ${pid}; the embedded database allows one process at a time`);
    this.name = 'DataDirInUseError';
  }
}

/**
 * Takes the embedded database's directory for this process. PGlite is single-process:
 * two writers on one directory would corrupt it, so a second process is refused. A lock
 * left by a process that no longer runs is taken over. A directory it has to create is
 * private (mode 0700); an existing one is made private by preparePrivateDataDir beforehand.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const lockFile = join(dataDir, 'petstore.lock');
  const holder = lockHolder(lockFile);
  if (holder !== undefined && holder !== process.pid && isRunning(holder)) throw new DataDirInUseError(dataDir, holder);
  writeFileSync(lockFile, String(process.pid), { mode: PRIVATE_FILE_MODE });
  return () => rmSync(lockFile, { force: true });
}

function lockHolder(lockFile: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
