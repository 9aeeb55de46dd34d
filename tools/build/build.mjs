// `npm run build`: compiles the service, its libraries and the key CLI into dist/ with swc, and makes
// the embedded database's template if it is missing (see makeEmbeddedTemplate).
// swc skips a source path that does not exist without a word, so a folder missing from a Docker
// build context used to give an image without the key CLI. Every source folder must exist here,
// or the build fails naming it.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** What dist/ is compiled from: the service, the libraries and the key CLI. */
const SOURCES = ['apps/api/src', 'libs', 'tools/keys'];
const OUT_DIR = 'dist';

function failOnMissingSources(sources) {
  const missing = sources.filter((source) => !existsSync(source));
  if (missing.length === 0) return;
  console.error(`npm run build: source folder${missing.length > 1 ? 's' : ''} missing: ${missing.join(', ')}`);
  console.error('(in a Docker build: is it copied into the build stage?)');
  process.exit(1);
}

/** Runs swc's CLI with the node running this script (no shell, no PATH lookup). */
function compile(sources) {
  const swc = createRequire(import.meta.url).resolve('@swc/cli/bin/swc.js');
  const args = [swc, ...sources, '--out-dir', OUT_DIR, '--ignore', '**/*.spec.ts', '--quiet'];
  const { status, error } = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (error) throw error;
  return status ?? 1;
}

/**
 * The embedded database's template (libs/persistence, embedded-database.ts): what PGlite's initdb
 * makes, made once per PGlite version into node_modules/.cache, so that a first start copies it
 * instead of running initdb. Made by the code just compiled, which is also what uses it.
 */
async function makeEmbeddedTemplate() {
  const started = performance.now();
  const persistence = createRequire(import.meta.url)(join(process.cwd(), OUT_DIR, 'libs/persistence/src/lib/embedded-database.js'));
  if (await persistence.createEmbeddedTemplate()) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `npm run build: embedded database template made in ${seconds} s (once per PGlite version): ${persistence.embeddedTemplateDir()}`,
    );
  }
}

process.chdir(join(import.meta.dirname, '../..'));
failOnMissingSources(SOURCES);
// Stale output of a deleted source file must not survive into dist/.
rmSync(OUT_DIR, { recursive: true, force: true });
const status = compile(SOURCES);
if (status === 0) await makeEmbeddedTemplate();
process.exit(status);
