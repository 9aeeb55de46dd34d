import type { PGliteOptions } from '@electric-sql/pglite';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

// PostgreSQL's default shared_buffers grows PGlite's memory, which never shrinks: docs/performance.md, "Start-up and memory".
const EMBEDDED_SETTINGS = ['shared_buffers=16MB'];

/** The database PGlite opens (its default, named here for the traces' db.namespace). */
export const EMBEDDED_DATABASE_NAME = 'postgres';

/** The embedded database's own directory inside DATA_DIR (beside the development key and the lock). */
export function embeddedDatabaseDir(dataDir: string): string {
  return join(dataDir, 'pglite');
}

/** PGlite's options for DATA_DIR's database, or one in memory from a dumpDataDir tarball (tests); PGlite loads only when used. */
export async function embeddedDatabaseOptions(where: { readonly dataDir: string } | { readonly tarball: Blob }): Promise<PGliteOptions> {
  const { PGlite } = await import('@electric-sql/pglite');
  const settings = EMBEDDED_SETTINGS.flatMap((setting) => ['-c', setting]);
  const storage =
    'dataDir' in where ? { dataDir: embeddedDatabaseDir(where.dataDir) } : { dataDir: 'memory://', loadDataDir: where.tarball };
  return { ...storage, database: EMBEDDED_DATABASE_NAME, startParams: [...PGlite.defaultStartParams, ...settings] };
}

/** Where `npm run build` keeps PGlite's initdb result per version, for new databases (docs/performance.md, "Start-up and memory"). */
export function embeddedTemplateDir(): string {
  // node_modules/@electric-sql/pglite/dist/index.cjs: its package.json is not among its exports.
  const packageDir = dirname(dirname(require.resolve('@electric-sql/pglite')));
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  return join(packageDir, '../../.cache/petstore-pglite-template', version);
}

/** Copies the template, if any, into a new embedded database so PGlite skips initdb; true if it did. Call with DATA_DIR locked. */
export function seedEmbeddedDatabase(dataDir: string, templateDir = embeddedTemplateDir()): boolean {
  const target = embeddedDatabaseDir(dataDir);
  if (!existsSync(join(templateDir, 'PG_VERSION'))) return false;
  if (existsSync(target) && readdirSync(target).length > 0) return false;
  // Copied aside, then renamed: a copy cut short is never taken for a database.
  const copy = `${target}.copy-${process.pid}`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(templateDir, copy, { recursive: true });
  rmSync(target, { recursive: true, force: true });
  renameSync(copy, target);
  return true;
}

/** Makes the template if missing (false if there), readable by all: the image's service is not the user that built it. */
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
