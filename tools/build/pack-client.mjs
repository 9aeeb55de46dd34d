// `npm run client:pack [-- <dir>]`: the typed client (libs/client) as an npm package and its tarball.
// tsc compiles it to CommonJS with type declarations into <dir>/package/lib (dir: dist/libs/client
// by default), beside a package.json written here and the README, and `npm pack` puts the tarball in
// <dir>; the last line printed is its path. The manifest restates nothing: the version, licence and
// engines are the repository's (package.json), and the dependencies are the packages the compiled
// files import, at the ranges the root package.json gives them.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');
const LIBRARY = join(ROOT, 'libs/client');

/** The package names a compiled file imports: require() in JavaScript, import and import() in declarations. */
function packagesImportedBy(file) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => !specifier.startsWith('.') && !isBuiltin(specifier))
    .map((specifier) => specifier.split('/', specifier.startsWith('@') ? 2 : 1).join('/'));
}

/** Each package the compiled client imports, at the range the root package.json's dependencies give it. */
function dependenciesOf(libDir, rootManifest) {
  const names = new Set(
    readdirSync(libDir, { recursive: true })
      .filter((file) => /\.(js|d\.ts)$/.test(file))
      .flatMap((file) => packagesImportedBy(join(libDir, file))),
  );
  return Object.fromEntries(
    [...names].sort().map((name) => {
      const range = rootManifest.dependencies?.[name];
      // A library of this workspace (@petstore/…) is not on any registry: the package would not install.
      if (!range) throw new Error(`The client imports ${name}, which is not in the dependencies of the root package.json`);
      return [name, range];
    }),
  );
}

function pack(outDir) {
  const packageDir = join(outDir, 'package');
  const libDir = join(packageDir, 'lib');
  rmSync(packageDir, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(LIBRARY, 'tsconfig.lib.json'), '--outDir', libDir], { stdio: 'inherit' });

  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const manifest = {
    name: '@petstore/client',
    version: root.version,
    description: 'Typed client of the Petstore API, generated from its OpenAPI document: int64 values as bigint, a page walker',
    license: root.license,
    type: 'commonjs',
    main: './lib/index.js',
    types: './lib/index.d.ts',
    exports: { '.': { types: './lib/index.d.ts', default: './lib/index.js' }, './package.json': './package.json' },
    files: ['lib'],
    sideEffects: false,
    engines: root.engines,
    dependencies: dependenciesOf(libDir, root),
  };
  writeFileSync(join(packageDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  copyFileSync(join(LIBRARY, 'README.md'), join(packageDir, 'README.md'));

  const packed = execFileSync('npm', ['pack', packageDir, '--pack-destination', outDir, '--json', '--silent'], { encoding: 'utf8' });
  return join(outDir, JSON.parse(packed)[0].filename);
}

console.log(pack(resolve(process.argv[2] ?? join(ROOT, 'dist/libs/client'))));
