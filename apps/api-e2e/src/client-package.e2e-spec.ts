import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describeOn } from './support/api';
import { tempDir } from './support/leftovers';
import { runToExit } from './support/run-to-exit';
import { databaseEnv, type RunningServer, startServer, TEST_API_KEY } from './support/server';

// The typed client as a team outside the repository gets it (docs/contract.md, "The typed
// client"): `npm run client:pack`'s tarball installed into an empty project in a temporary folder,
// a program type-checked against it by that project's own tsc (strict), with the README's example,
// and run by plain node against a started service. npm takes the client's dependencies and
// TypeScript from its cache when it has them (--prefer-offline), else from the registry.

const ROOT = resolve(__dirname, '../../..');
const PACK = join(ROOT, 'tools/build/pack-client.mjs');
const PROGRAMS = join(__dirname, 'client-consumer');
/** The workspace's TypeScript, which the project installs too. */
const TYPESCRIPT_VERSION = (JSON.parse(readFileSync(require.resolve('typescript/package.json'), 'utf8')) as { version: string }).version;

/** A strict project, ES modules, without @types/node: the package's types must stand on the DOM's fetch types. */
const CONSUMER_TSCONFIG = {
  compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', outDir: 'out', noEmitOnError: true, types: [] },
  include: ['*.mts', '*.cts'],
};

/** Runs a command to completion and returns its stdout; rejects with its output when it fails. */
async function run(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<string> {
  // Without the npm_* variables of an `npm test` above: npm would take the workspace for the project.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')));
  const { code, stdout, stderr } = await runToExit(command, args, { cwd: options.cwd ?? ROOT, env: { ...env, ...options.env } });
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${stdout}${stderr}`);
  return stdout;
}

/** The TypeScript of the README shipped in the package, type-checked with the programs (not run: it names no real service). */
function readmeExample(): string {
  const blocks = [...readFileSync(join(ROOT, 'libs/client/README.md'), 'utf8').matchAll(/^```ts\n([^]*?)^```$/gm)].map(([, code]) => code);
  if (blocks.length === 0) throw new Error('libs/client/README.md has no ts block');
  return ['declare const process: { readonly env: Readonly<Record<string, string | undefined>> };', ...blocks].join('\n');
}

/** The tarball packed, installed into a new project outside the workspace, and the programs compiled there. */
async function installedConsumer(dir: string): Promise<string> {
  const tarball = (await run(process.execPath, [PACK, join(dir, 'pack')])).trim().split('\n').at(-1)!;
  const project = join(dir, 'consumer');
  cpSync(PROGRAMS, project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(CONSUMER_TSCONFIG));
  writeFileSync(join(project, 'readme.mts'), readmeExample());
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, `typescript@${TYPESCRIPT_VERSION}`], {
    cwd: project,
  });
  await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.'], { cwd: project });
  return project;
}

describeOn('pglite')('the client package, installed from its tarball outside the workspace', () => {
  let server: RunningServer;
  let project: string;

  beforeAll(async () => {
    // The service starts while the package is packed, installed and compiled against.
    [server, project] = await Promise.all([startServer(databaseEnv('pglite')), installedConsumer(tempDir('client-package'))]);
  });
  afterAll(() => server?.stop());

  it('creates a pet with a categoryId above 2^53 and gets it back exact, then walks every page, each pet once', async () => {
    const seen = JSON.parse(
      await run(process.execPath, ['out/walk.mjs'], { cwd: project, env: { PETSTORE_URL: server.url, PETSTORE_KEY: TEST_API_KEY } }),
    );
    const pet = { id: expect.stringMatching(/^\d+$/), name: 'Exact', categoryId: '9223372036854775807', status: 'available' };
    expect(seen).toMatchObject({ created: pet, fetched: seen.created, exact: true });
    // The service is the test's own: the walks from the start meet only the program's nine pets,
    // in pages of 3 (the third full, so a fourth, empty, is asked for), and the sold ones in pages of 2.
    expect(seen.ids).toHaveLength(9);
    expect(seen.soldIds).toHaveLength(3);
    expect(seen.walked).toEqual(seen.ids);
    expect(seen.walkedSold).toEqual(seen.soldIds);
  });

  it('is required from CommonJS too', async () => {
    expect(JSON.parse(await run(process.execPath, ['out/require.cjs'], { cwd: project }))).toEqual([
      'function',
      'function',
      'function',
      'function',
    ]);
  });
});
