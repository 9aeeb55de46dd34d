import type { PGliteOptions } from '@electric-sql/pglite';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * PostgreSQL settings of the embedded database, on top of PGlite's own (PGlite.defaultStartParams).
 * shared_buffers: PostgreSQL's default of 128 MB grows PGlite's WebAssembly memory, which never
 * shrinks, from 128 to 188 MB at start, and the buffers are resident once read. 16 MB took the
 * service's RSS from 372 to 267 MiB idle and from 514 to 406 MiB at its peak under load, with no
 * measurable loss on 300 000 pets (docs/performance.md, "Start-up and memory"): pages outside the buffer cache
 * come from the operating system's file cache.
 */
const EMBEDDED_SETTINGS = ['shared_buffers=16MB'];

/** The database PGlite opens (its default, named here for the traces' db.namespace). */
export const EMBEDDED_DATABASE_NAME = 'postgres';

/** The embedded database's own directory inside DATA_DIR (beside the development key and the lock). */
export function embeddedDatabaseDir(dataDir: string): string {
  return join(dataDir, 'pglite');
}

/**
 * PGlite's options for the embedded database of DATA_DIR, or for one in memory loaded from a
 * database's tarball (PGlite's dumpDataDir; the tests' databases). PGlite (a WebAssembly
 * PostgreSQL) is loaded only when it is used.
 */
export async function embeddedDatabaseOptions(where: { readonly dataDir: string } | { readonly tarball: Blob }): Promise<PGliteOptions> {
  const { PGlite } = await import('@electric-sql/pglite');
  const settings = EMBEDDED_SETTINGS.flatMap((setting) => ['-c', setting]);
  const storage =
    'dataDir' in where ? { dataDir: embeddedDatabaseDir(where.dataDir) } : { dataDir: 'memory://', loadDataDir: where.tarball };
  return { ...storage, database: EMBEDDED_DATABASE_NAME, startParams: [...PGlite.defaultStartParams, ...settings] };
}

/**
 * The template of a new embedded database: the cluster PGlite's initdb creates, made once per PGlite
 * version by `npm run build` (createEmbeddedTemplate) and kept with the installed packages, in
 * node_modules/.cache. Running initdb in WebAssembly is most of a first start (4 to 6 s on two
 * cores); copying its result takes a tenth of a second.
 */
export function embeddedTemplateDir(): string {
  // node_modules/@electric-sql/pglite/dist/index.cjs: its package.json is not among its exports.
  const packageDir = dirname(dirname(require.resolve('@electric-sql/pglite')));
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  return join(packageDir, '../../.cache/petstore-pglite-template', version);
}

/**
 * Gives a new embedded database (DATA_DIR without one) a copy of the template, if there is one,
 * so that PGlite opens an initialised cluster instead of running initdb. The copy is made beside
 * the database's directory and renamed into place: a copy cut short is never taken for a database.
 * Without a template, or when the directory already holds anything, PGlite decides as before.
 * Called with the data directory locked (lockDataDir).
 */
export function seedEmbeddedDatabase(dataDir: string, templateDir = embeddedTemplateDir()): boolean {
  const target = embeddedDatabaseDir(dataDir);
  if (!existsSync(join(templateDir, 'PG_VERSION'))) return false;
  if (existsSync(target) && readdirSync(target).length > 0) return false;
  const copy = `${target}.copy-${process.pid}`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(templateDir, copy, { recursive: true });
  rmSync(target, { recursive: true, force: true });
  renameSync(copy, target);
  return true;
}

/**
 * Makes the template if it is missing: PGlite creates a database in a scratch directory beside it,
 * which is closed (a clean shutdown) and renamed into place, readable by every user (the image's
 * service does not run as the user that built it) and writable by none but its owner.
 * Returns false when the template was there already.
 */
export async function createEmbeddedTemplate(templateDir = embeddedTemplateDir()): Promise<boolean> {
  if (existsSync(join(templateDir, 'PG_VERSION'))) return false;
  mkdirSync(dirname(templateDir), { recursive: true });
  const scratch = mkdtempSync(`${templateDir}.new-`);
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const database = await PGlite.create({ dataDir: scratch });
    await database.close();
    makeTreeReadable(scratch);
    try {
      renameSync(scratch, templateDir);
    } catch (error) {
      // Another build made it meanwhile: one template is as good as the other.
      if (!['EEXIST', 'ENOTEMPTY'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
    return true;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** 0755 directories and 0644 files. PGlite creates some files 0666 (see Database.makeEmbeddedFilesPrivate). */
function makeTreeReadable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) makeTreeReadable(path);
    else if (entry.isFile()) chmodSync(path, 0o644);
  }
}
