import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The data directory's mode: only the service's user may list, enter or change it. */
export const PRIVATE_DIR_MODE = 0o700;
/** The mode of the files the service writes itself (the lock, the development key). */
export const PRIVATE_FILE_MODE = 0o600;

const GROUP_OR_OTHERS = 0o077;

/** Creates `dataDir` 0700, or tightens one open to others, with a warning: the directory keeps other users from every file inside. */
export function preparePrivateDataDir(dataDir: string, warn: (message: string) => void): void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const mode = statSync(dataDir).mode & 0o7777;
  if ((mode & GROUP_OR_OTHERS) === 0) return;
  chmodSync(dataDir, PRIVATE_DIR_MODE);
  warn(`The data directory ${dataDir} was open to other users (mode ${octal(mode)}): its mode is now ${octal(PRIVATE_DIR_MODE)}`);
}

/** Takes group and others' permissions off every file and directory under `dir`, not symlinks (PGlite's own modes: see Database). */
export function makeTreePrivate(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) makeTreePrivate(path);
    if (!entry.isDirectory() && !entry.isFile()) continue;
    const mode = lstatSync(path).mode & 0o7777;
    if (mode & GROUP_OR_OTHERS) chmodSync(path, mode & ~GROUP_OR_OTHERS);
  }
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}
