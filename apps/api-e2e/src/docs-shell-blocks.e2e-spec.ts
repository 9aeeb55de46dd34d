import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { tempDir, track } from './support/leftovers';
import { describeOn, target } from './support/api';
import { PGLITE_TEMPLATE_VARIABLE, type RunningServer, startServer, testDatabaseUrl } from './support/server';

// Every shell block of README.md and docs/*.md runs as written (docs/development.md, "The shell
// blocks of the docs"): against a service of this file's own, started once from the built bundle,
// on the embedded database with no API_KEYS (the development key), or on PostgreSQL with API_KEYS
// (as docs/operations.md says), each block after the README's set-up block, in
// `bash -euo pipefail`, from the repository's root.

const ROOT = resolve(__dirname, '../../..');
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const SHELLS = new Set(['sh', 'bash', 'shell']);
const BLOCK_TIMEOUT_MS = 60_000;

interface ShellBlock {
  /** `README.md:27`: where its fence opens. */
  readonly where: string;
  readonly script: string;
  /** The fence's marker after the language: `set-up`, or `skip-test: <reason>`. */
  readonly marker: string;
}

/** The fenced code blocks of a Markdown page whose language is a shell; fences inside longer fences are text. */
function shellBlocks(page: string): ShellBlock[] {
  const blocks: ShellBlock[] = [];
  let open: { fence: string; info: string; line: number; body: string[] } | undefined;
  for (const [index, line] of readFileSync(join(ROOT, page), 'utf8').split('\n').entries()) {
    if (!open) {
      const start = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
      if (start) open = { fence: start[1], info: start[2].trim(), line: index + 1, body: [] };
      continue;
    }
    const end = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
    if (end && end[1][0] === open.fence[0] && end[1].length >= open.fence.length) {
      const [language = '', ...marker] = open.info.split(/\s+/);
      if (SHELLS.has(language)) blocks.push({ where: `${page}:${open.line}`, script: open.body.join('\n'), marker: marker.join(' ') });
      open = undefined;
    } else {
      open.body.push(line);
    }
  }
  return blocks;
}

const blocks = PAGES.flatMap(shellBlocks);
const setUps = blocks.filter((block) => block.marker === 'set-up');
const skipReason = (block: ShellBlock) => /^skip-test:\s*(.*)$/.exec(block.marker)?.[1];
const runnable = blocks.filter((block) => block.marker === '');
const skipped = blocks.filter((block) => skipReason(block) !== undefined);

/** The `curl` commands of a script that would exit 0 on an error status: neither `-f`/`--fail` nor a checked `%{http_code}`. */
function uncheckedCurls(script: string): string[] {
  const commands = script
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .flatMap((line) => line.split(/&&|\|\||[|;]/));
  return commands.filter(
    (command) =>
      /\bcurl\s/.test(command) &&
      !/(^|\s)(-[a-zA-Z]*f[a-zA-Z]*|--fail(-with-body)?)(\s|$)/.test(command) &&
      !command.includes('%{http_code}'),
  );
}

/** Runs a script in bash -euo pipefail, in its own process group, which is killed afterwards whatever it left running. */
async function runBash(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  track(child, { group: true });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const killGroup = () => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // Nothing left in the group.
    }
  };
  const timer = setTimeout(() => {
    output += `\n(still running after ${BLOCK_TIMEOUT_MS} ms: killed by the test)`;
    killGroup();
  }, BLOCK_TIMEOUT_MS);
  const code = await new Promise<number | null>((done) => child.once('close', (exitCode) => done(exitCode)));
  clearTimeout(timer);
  killGroup();
  return { code, output };
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(page: string): Set<string> {
  const text = readFileSync(page, 'utf8').replace(/^(`{3,}|~{3,})[\s\S]*?^\1\s*$/gm, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map(([, heading]) => anchorOf(heading)));
}

/** The service the blocks run against, and what their shell knows of it, as a reader's would. */
interface DocsService {
  readonly server: RunningServer;
  readonly env: Record<string, string>;
}

/**
 * On the embedded database without API_KEYS, as after `npm start`: the service creates the
 * development key in DATA_DIR, which the set-up reads.
 */
async function embeddedService(dataDir: string): Promise<DocsService> {
  const template = process.env[PGLITE_TEMPLATE_VARIABLE];
  if (template) cpSync(template, dataDir, { recursive: true });
  const server = await startServer({ DATA_DIR: dataDir, API_KEYS: '' });
  return { server, env: { PORT: new URL(server.url).port, DATA_DIR: dataDir } };
}

/**
 * On PostgreSQL as docs/operations.md's "Running it" says: DATABASE_URL and API_KEYS exported, so
 * the set-up reads the key from API_KEYS and the key CLI opens the same database.
 */
async function postgresService(dataDir: string): Promise<DocsService> {
  const exported = { DATABASE_URL: testDatabaseUrl('postgres'), API_KEYS: `docs-${process.pid}-key` };
  const server = await startServer({ ...exported, DATA_DIR: dataDir });
  return { server, env: { ...exported, PORT: new URL(server.url).port, DATA_DIR: dataDir } };
}

// Its server is its own: on the embedded database for the pglite target, on PostgreSQL for postgres.
describeOn('pglite', 'postgres')('the shell blocks of README.md and docs/', () => {
  let service: DocsService | undefined;
  let dataDir: string | undefined;
  let env: Record<string, string>;
  const started = Date.now();

  beforeAll(async () => {
    dataDir = tempDir('docs');
    service = await (target === 'postgres' ? postgresService(dataDir) : embeddedService(dataDir));
    // Nothing else of this process's environment (TEST_DATABASE_URL…) may reach the blocks.
    env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...service.env };
  });

  afterAll(async () => {
    await service?.server.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      [
        `Docs' shell blocks on ${target}: ${runnable.length + setUps.length} run, ${skipped.length} skipped, in ${seconds} s`,
        ...skipped.map((block) => `  skipped ${block.where}: ${skipReason(block)}`),
      ].join('\n'),
    );
  });

  it('finds one set-up block, in the README, and no marker it does not know', () => {
    expect(setUps.map((block) => block.where.split(':')[0])).toEqual(['README.md']);
    const unknown = blocks.filter((block) => block.marker !== '' && block.marker !== 'set-up' && !skipReason(block));
    expect(unknown.map((block) => `${block.where}: ${block.marker}`)).toEqual([]);
    expect(skipped.filter((block) => !skipReason(block)).map((block) => `${block.where}: a skip-test needs its reason`)).toEqual([]);
  });

  it('runs the set-up block, whose key the service accepts', async () => {
    const check = 'test -n "$KEY"\ncurl -fsS -o /dev/null "$API/pets" -H "Authorization: Bearer $KEY"';
    const { code, output } = await runBash(`${setUps[0].script}\n${check}`, env);
    expect({ code, output }).toEqual({ code: 0, output: '' });
  });

  it.each(runnable.map((block) => [block.where, block] as const))('runs %s', async (_where, block) => {
    expect(uncheckedCurls(block.script)).toEqual([]);
    const { code, output } = await runBash(`${setUps[0].script}\n${block.script}`, env);
    if (code !== 0) throw new Error(`${block.where} exited with ${code}:\n${block.script}\n--- output:\n${output}`);
  });

  it.skip.each(skipped.map((block) => [block.where, skipReason(block)] as const))('%s (skip-test: %s)', () => undefined);

  it("has a configuration table that lists exactly the variables of the service's --help", () => {
    const help = spawnSync(process.execPath, [join(ROOT, 'dist/apps/api/src/main.js'), '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    const served = [...help.stdout.matchAll(/^ {2}([A-Z][A-Z0-9_]*) /gm)].map(([, name]) => name);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'));
    const documented = [...table.matchAll(/^\| `([A-Z][A-Z0-9_]*)`/gm)].map(([, name]) => name);
    expect(served.length).toBeGreaterThan(0);
    expect([...documented].sort()).toEqual([...served].sort());
  });

  it('has relative links and anchors that resolve', () => {
    const pages = [...PAGES, 'tools/bench/README.md'];
    const broken = pages.flatMap((page) => {
      const text = readFileSync(join(ROOT, page), 'utf8');
      return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
        .map(([, link]) => link)
        .filter((link) => !/^[a-z]+:/.test(link))
        .filter((link) => {
          const [path, anchor] = link.split('#');
          const file = path ? resolve(dirname(join(ROOT, page)), path) : join(ROOT, page);
          if (!existsSync(file)) return true;
          return anchor !== undefined && file.endsWith('.md') && !anchorsOf(file).has(anchor);
        })
        .map((link) => `${page}: ${link} (${relative(ROOT, resolve(dirname(join(ROOT, page)), link.split('#')[0] || page))})`);
    });
    expect(broken).toEqual([]);
  });
});
