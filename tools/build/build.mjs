// `npm run build`: compiles the service, its libraries and the key CLI into dist/ with swc, bundles
// the service's entry point (bundleService; not with --no-bundle), and makes the embedded database's
// template if it is missing (makeEmbeddedTemplate). On a Node the project cannot run on, it stops
// first, naming the fix (project-node.mjs): `npm start` and `npm test` begin with it.
// swc skips a source path that does not exist without a word, so a folder missing from a Docker
// build context used to give an image without the key CLI. Every source folder must exist here,
// or the build fails naming it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { BUNDLE_OUTPUT, withNamesSetOnlyWhenRenamed } from './keep-names-helper.mjs';
import { projectNodeRefusal } from './project-node.mjs';

/** What dist/ is compiled from: the service, the libraries and the key CLI. */
const SOURCES = ['apps/api/src', 'libs', 'tools/keys'];
const OUT_DIR = 'dist';

function failOnUnsupportedNode() {
  const refusal = projectNodeRefusal(process.versions.node, JSON.parse(readFileSync('package.json', 'utf8')));
  if (refusal === undefined) return;
  console.error(`npm run build: ${refusal}`);
  process.exit(1);
}

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

/** The service's entry point, compiled by swc: what the bundle is made from, then a launcher of the bundle. */
const SERVICE_MAIN = `${OUT_DIR}/apps/api/src/main.js`;
const SERVICE_BUNDLE = `${OUT_DIR}/apps/api/src/main.bundle.js`;

/**
 * Packages left out of the bundle, loaded from node_modules as before, each for a reason: files of
 * their own that they find beside their code at run time, or state that must exist only once.
 */
const UNBUNDLED = [
  // PGlite's WebAssembly and data files, which it finds through import.meta.url.
  '@electric-sql/pglite',
  // Swagger UI's files, served from its directory.
  'swagger-ui-dist',
  // pino's transports run in a worker thread that loads these by path.
  'pino',
  'pino-pretty',
  'thread-stream',
  // @nestjs/mapped-types loads it with createRequire(): a bundled copy would be a second one, with
  // validation metadata of its own (the DTOs' rules, compiled at start: docs/decisions/0007).
  'class-validator',
  // ioredis reads its package.json beside its code (its version, sent to Redis) and trims its own
  // directory from error stacks: in the bundle, that would be every frame of the service.
  // OpenTelemetry's instrumentations hook `require`: they see ioredis, pino and pg only loaded from node_modules.
  'ioredis',
  'pg',
  // The OpenTelemetry SDK (libs/observability, tracing-sdk.ts): loaded only when tracing is on, and then
  // from node_modules, so that the bundle holds none of it.
  '@opentelemetry/api',
  '@opentelemetry/core',
  '@opentelemetry/instrumentation-http',
  '@opentelemetry/instrumentation-ioredis',
  '@opentelemetry/instrumentation-pg',
  '@opentelemetry/instrumentation-pino',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-node',
  '@opentelemetry/semantic-conventions',
  // Nest's optional packages, not installed: Nest requires them only for features the service does not use.
  '@nestjs/microservices',
  '@nestjs/websockets',
  '@nestjs/platform-express',
  '@fastify/view',
  '@fastify/multipart',
  // Nest's ValidationPipe's (inputs are checked by ajv: docs/decisions/0007).
  'class-transformer',
];

/**
 * Modules of ours left out of the bundle and required from dist/ beside it: functions that
 * @nestjs/swagger writes into the /docs page with Function.prototype.toString must be the code as
 * swc wrote it, without the bundle's helpers (keepNames adds calls to one). The build fails if one
 * is no longer imported, rather than letting a rename put it back into the bundle unnoticed.
 */
const SERIALIZED_MODULES = ['./exact-json-plugin'];

/** An esbuild plugin: SERIALIZED_MODULES, imported from the bundle's own directory, are left to be required from there. */
function keepSerializedModulesOut(met) {
  const bundleDir = resolve(dirname(SERVICE_BUNDLE));
  return {
    name: 'keep-serialized-modules-out',
    setup(build) {
      build.onResolve({ filter: /^\.\// }, ({ path, resolveDir }) => {
        if (resolveDir !== bundleDir || !SERIALIZED_MODULES.includes(path)) return undefined;
        met.add(path);
        return { path: `${path}.js`, external: true };
      });
    },
  };
}

/**
 * zod's CommonJS build, which the bundle gets (swc's output requires it), loads its error messages
 * in some 60 languages through one index: 700 KB of the bundle, held in the heap for a service that
 * speaks English. Its schemas load English themselves (locales/en), and the service never asks for
 * another (z.locales): the index becomes an empty module. The build fails if zod no longer loads it.
 */
function withoutZodLocales(met) {
  return {
    name: 'without-zod-locales',
    setup(build) {
      build.onResolve({ filter: /^\.\.\/locales\/index\.cjs$/ }, ({ path, importer }) => {
        if (!/[\\/]node_modules[\\/]zod[\\/]/.test(importer)) return undefined;
        met.add(importer);
        return { path, namespace: 'zod-locales' };
      });
      build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
    },
  };
}

/**
 * Bundles the service into one file with esbuild, from swc's output (the same code, decorator
 * metadata included): loading it reads one file instead of about 1,400 (docs/performance.md, "Start-up and
 * memory"). Nest 12's modules are ES modules, which locate themselves with import.meta.url: in the
 * CommonJS bundle that is the bundle's own URL, from which node_modules is found as before.
 * main.js then becomes a launcher: it enables Node's compile cache before it loads the bundle, which
 * the cache would not cover if it were enabled from inside it (the entry point is compiled first).
 */
async function bundleService() {
  const esbuild = createRequire(import.meta.url)('esbuild');
  const serializedMet = new Set();
  const zodLocalesMet = new Set();
  const { outputFiles } = await esbuild.build({
    entryPoints: [SERVICE_MAIN],
    outfile: SERVICE_BUNDLE,
    write: false,
    bundle: true,
    ...BUNDLE_OUTPUT,
    external: UNBUNDLED.flatMap((name) => [name, `${name}/*`]),
    plugins: [keepSerializedModulesOut(serializedMet), withoutZodLocales(zodLocalesMet)],
    define: { 'import.meta.url': '__bundle_url' },
    banner: { js: "const __bundle_url = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
  });
  writeFileSync(SERVICE_BUNDLE, withNamesSetOnlyWhenRenamed(outputFiles[0].text));
  const unmet = SERIALIZED_MODULES.filter((path) => !serializedMet.has(path));
  if (unmet.length > 0)
    throw new Error(`bundleService: ${unmet.join(', ')} no longer imported from ${dirname(SERVICE_BUNDLE)}: update SERIALIZED_MODULES`);
  if (zodLocalesMet.size === 0) throw new Error('bundleService: zod no longer loads ../locales/index.cjs: update withoutZodLocales');
  const launcher = [
    "// Written by `npm run build` (tools/build/build.mjs, bundleService): Node's compile cache, then the service.",
    "'use strict';",
    "require('./compile-cache');",
    '// A failure as the service loads is printed as itself: Node would print the failing line first, which is the whole bundle.',
    'try {',
    "  require('./main.bundle.js');",
    '} catch (error) {',
    '  console.error(error);',
    '  process.exit(1);',
    '}',
    '',
  ];
  writeFileSync(SERVICE_MAIN, launcher.join('\n'));
  // swc's map of main.js describes the code now in the bundle.
  rmSync(`${SERVICE_MAIN}.map`, { force: true });
}

process.chdir(join(import.meta.dirname, '../..'));
failOnUnsupportedNode();
failOnMissingSources(SOURCES);
// Stale output of a deleted source file must not survive into dist/.
rmSync(OUT_DIR, { recursive: true, force: true });
const status = compile(SOURCES);
if (status === 0) {
  // The image, `npm start`, the tests and the benches run the bundle; --no-bundle is for the tools that load swc's
  // modules (migration:generate, the previous-release check, the profile of the floor).
  if (!process.argv.includes('--no-bundle')) await bundleService();
  await makeEmbeddedTemplate();
}
process.exit(status);
