import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { baseUrl, describeOn } from './support/api';
import { tempDir } from './support/leftovers';
import { runToExit } from './support/run-to-exit';
import { databaseEnv, type RunningServer, startServer, TEST_API_KEY } from './support/server';

// The typed client as a team outside the repository gets it (docs/contract.md, "The typed
// client"): `npm run client:pack`'s tarball installed into an empty project in a temporary folder,
// a program type-checked against it by that project's own tsc (strict) and run by plain node
// against a started service; and the README's example, in a project made as the README says.

const ROOT = resolve(__dirname, '../../..');
const PACK = join(ROOT, 'tools/build/pack-client.mjs');
const PROGRAMS = join(__dirname, 'client-consumer');
/** The workspace's TypeScript, which the project installs too. */
const TYPESCRIPT_VERSION = (JSON.parse(readFileSync(require.resolve('typescript/package.json'), 'utf8')) as { version: string }).version;

/**
 * A strict project, ES modules, without @types/node: the package's types must stand on the DOM's
 * fetch types. The package's declarations are checked; TypeScript's own lib files are not
 * (docs/development.md, "Test run time").
 */
const CONSUMER_TSCONFIG = {
  compilerOptions: {
    strict: true,
    module: 'nodenext',
    target: 'es2022',
    outDir: 'out',
    noEmitOnError: true,
    types: [],
    skipDefaultLibCheck: true,
  },
  include: ['*.mts', '*.cts'],
};

/**
 * The client's dependencies and TypeScript from npm's cache when it has them, else from the
 * registry; a registry that cannot be reached fails the install with npm's own error well within
 * the hook's time, instead of npm's retries outlasting it.
 */
const NPM_INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--fetch-retries=1', '--fetch-timeout=30000'] as const;

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

/** The TypeScript of the README shipped in the package: one program, as a reader saves it. */
function readmeExample(): string {
  const blocks = [...readFileSync(join(ROOT, 'libs/client/README.md'), 'utf8').matchAll(/^```ts\n([^]*?)^```$/gm)].map(([, code]) => code);
  if (blocks.length !== 1) throw new Error(`libs/client/README.md has ${blocks.length} ts blocks; its example is one program`);
  return blocks[0];
}

/** The client's tarball, packed by `npm run client:pack`'s script into `dir`. */
async function packedClient(dir: string): Promise<string> {
  return (await run(process.execPath, [PACK, dir])).trim().split('\n').at(-1)!;
}

/** The tarball installed into a new strict project outside the workspace, without @types/node, and the programs compiled there. */
async function installedConsumer(tarball: string, project: string): Promise<string> {
  cpSync(PROGRAMS, project, { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(CONSUMER_TSCONFIG));
  await run('npm', [...NPM_INSTALL, tarball, `typescript@${TYPESCRIPT_VERSION}`], { cwd: project });
  await run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', '.'], { cwd: project });
  return project;
}

/**
 * A project made as the README's "Use" says, with `npm init -y` and `tsc --init` as they are, the
 * README's example saved as example.mts and compiled. TypeScript and @types/node at the
 * workspace's versions, so that the test does not change with the registry's latest.
 */
async function readmeProject(tarball: string, project: string): Promise<string> {
  mkdirSync(project);
  await run('npm', ['init', '-y'], { cwd: project });
  const typesNode = (JSON.parse(readFileSync(require.resolve('@types/node/package.json'), 'utf8')) as { version: string }).version;
  await run('npm', [...NPM_INSTALL, tarball], { cwd: project });
  await run('npm', [...NPM_INSTALL, '--save-dev', `typescript@${TYPESCRIPT_VERSION}`, `@types/node@${typesNode}`], { cwd: project });
  await run(process.execPath, ['node_modules/typescript/bin/tsc', '--init'], { cwd: project });
  writeFileSync(join(project, 'example.mts'), readmeExample());
  await run(process.execPath, ['node_modules/typescript/bin/tsc'], { cwd: project });
  return project;
}

describeOn('pglite')('the client package, installed from its tarball outside the workspace', () => {
  let server: RunningServer;
  let project: string;
  let readme: string;

  beforeAll(async () => {
    const dir = tempDir('client-package');
    // The service starts while the package is packed, installed and compiled against.
    const consumers = packedClient(join(dir, 'pack')).then((tarball) =>
      Promise.all([installedConsumer(tarball, join(dir, 'consumer')), readmeProject(tarball, join(dir, 'readme'))]),
    );
    [server, [project, readme]] = await Promise.all([startServer(databaseEnv('pglite')), consumers]);
  });
  afterAll(() => server?.stop());

  it("runs the README's example as written, in a project made as the README says", async () => {
    // On the run's shared server: the other test counts the pets it finds on its own.
    const output = await run(process.execPath, ['example.mjs'], {
      cwd: readme,
      env: { PETSTORE_URL: `${baseUrl()}/v1`, PETSTORE_KEY: TEST_API_KEY },
    });
    expect(output).toContain('exact int64: true');
    expect(output).toContain('unchanged: true');
    expect(output).toMatch(/^created \d+$/m);
  });

  it('creates a pet with a categoryId above 2^53 and gets it back exact, then walks every page, each pet once', async () => {
    const seen = JSON.parse(
      await run(process.execPath, ['out/walk.mjs'], { cwd: project, env: { PETSTORE_URL: server.url, PETSTORE_KEY: TEST_API_KEY } }),
    ) as Record<'created' | 'fetched' | 'exact' | 'ids' | 'soldIds' | 'walked' | 'walkedSold', unknown>;
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
