// Proves, without a Docker daemon, that the image's file set builds and starts every entry point
// the README and docs/ name. It reads the Dockerfile (so it cannot drift from it), copies into a scratch
// directory exactly what each stage's COPY lines take from the build context (honouring
// .dockerignore), runs the build stage's RUN commands there, assembles the runtime stage from its
// COPY --from lines, and runs each entry point there with --help (the CMD's with the node flags it
// gives), which loads its whole module graph and exits 0 without starting anything.
//
// What it does not prove: Docker itself (the base image, layers, users, the healthcheck). By
// default the build stage's `npm ci` is replaced by hard links to this checkout's node_modules,
// installed by `npm ci` from the same package-lock.json (minutes saved); `--npm-ci` runs it.
// The build and the entry points run on the node that runs this script: CI runs it on the
// Node version the Dockerfile's image names.
//
// Usage: node tools/image/check-entry-points.mjs [--npm-ci] [--keep]
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { DOCKERFILE, nodeCommand, parseDockerfile } from './dockerfile.mjs';

const ROOT = join(import.meta.dirname, '../..');
/** A --help that takes longer than this hangs on something it should not touch. */
const HELP_TIMEOUT_MS = 60_000;

// --- Dockerfile -------------------------------------------------------------------------------

/** COPY's flags and its sources and destination, shell or JSON form. */
function parseCopy(args) {
  const flags = {};
  let rest = args;
  for (let flag; (flag = /^--([a-z-]+)(?:=(\S+))?\s+/.exec(rest)); rest = rest.slice(flag[0].length)) flags[flag[1]] = flag[2] ?? true;
  const unsupported = Object.keys(flags).filter((flag) => !['from', 'chown', 'chmod', 'link'].includes(flag));
  if (unsupported.length > 0) throw new Error(`COPY --${unsupported[0]} is not emulated by this check: ${args}`);
  const paths = rest.startsWith('[') ? JSON.parse(rest) : rest.split(/\s+/);
  return { from: flags.from, sources: paths.slice(0, -1), destination: paths.at(-1) };
}

/** ENV KEY=value … (or the legacy ENV KEY value), with the stage's build arguments ($NAME, ${NAME}) substituted. */
function parseEnv(args, buildArgs) {
  const substituted = (value) => value.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, braced, bare) => buildArgs[braced ?? bare] ?? '');
  const legacy = /^(\w+)\s+([^=]*)$/.exec(args);
  if (legacy) return { [legacy[1]]: substituted(legacy[2]) };
  return Object.fromEntries(
    [...args.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map(([, key, value]) => [key, substituted(value.replace(/^"|"$/g, ''))]),
  );
}

/** ARG NAME[=default]: its default, as `docker build` without --build-arg takes it (CI passes none). */
function parseArg(args) {
  const [, name, fallback] = /^(\w+)(?:=(.*))?$/.exec(args.trim()) ?? [];
  return name ? { [name]: fallback ?? '' } : {};
}

// --- Build context ----------------------------------------------------------------------------

/** .dockerignore's rules as Docker applies them: anchored at the context root, a match excludes
 *  everything under it, `!` re-includes, the last matching rule wins. */
function dockerignore(contextDir, dockerfile) {
  const file = [`${dockerfile}.dockerignore`, join(contextDir, '.dockerignore')].find(existsSync);
  const rules = (file ? readFileSync(file, 'utf8').split(/\r?\n/) : [])
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => ({ include: line.startsWith('!'), pattern: globRegExp(line.replace(/^!/, '').replace(/^\/+|\/+$/g, '')) }));
  return {
    hasExceptions: rules.some((rule) => rule.include),
    excludes(path) {
      const candidates = path.split('/').map((_, index, parts) => parts.slice(0, index + 1).join('/'));
      const matches = (rule) => candidates.some((candidate) => rule.pattern.test(candidate));
      return rules.reduce((excluded, rule) => (matches(rule) ? !rule.include : excluded), false);
    },
  };
}

/** A Docker/Go path pattern as a RegExp: `**` any directories, `*` and `?` within one segment. */
function globRegExp(pattern) {
  const parts = pattern.split(/(\*\*\/|\*\*|\*|\?)/).map((part) => {
    if (part === '**/') return '(?:.*/)?';
    if (part === '**') return '.*';
    if (part === '*') return '[^/]*';
    if (part === '?') return '[^/]';
    return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${parts.join('')}$`);
}

/** The context paths a COPY source names: itself, or for a wildcard in its last segment the matches. */
function expandSource(contextDir, source) {
  const path = source.replace(/^\.?\/+/, '');
  if (!/[*?[]/.test(path)) return existsSync(join(contextDir, path)) ? [path] : [];
  if (/[*?[]/.test(dirname(path))) throw new Error(`COPY wildcards are emulated in the last path segment only: ${source}`);
  const parent = dirname(path) === '.' ? '' : `${dirname(path)}/`;
  const pattern = globRegExp(basename(path));
  return readdirSync(join(contextDir, parent || '.'))
    .filter((name) => pattern.test(name))
    .map((name) => `${parent}${name}`)
    .sort();
}

/** Copies one context path to a destination as Docker does: a directory's contents, not the directory. */
function copyFromContext(contextDir, ignore, path, target) {
  mkdirSync(dirname(target), { recursive: true });
  cpSync(join(contextDir, path), target, {
    recursive: true,
    filter: (source) => {
      const rel = relative(contextDir, source);
      // An excluded directory may still hold a re-included file, so only files decide then.
      if (ignore.hasExceptions && statSync(source).isDirectory()) return true;
      return rel === '' || !ignore.excludes(rel);
    },
  });
}

// --- Stages -----------------------------------------------------------------------------------

/** Emulates one stage in root/: COPY from the context or an earlier stage, ARG, ENV, WORKDIR, RUN. */
function buildStage(stage, index, { contextDir, ignore, scratch, stages, runCommands, npmCi }) {
  const root = join(scratch, `stage-${index}${stage.name ? `-${stage.name}` : ''}`);
  const state = { root, workdir: '/', env: {}, args: {} };
  mkdirSync(root, { recursive: true });
  for (const instruction of stage.instructions) {
    if (instruction.keyword === 'WORKDIR') state.workdir = resolveInStage(state.workdir, instruction.args);
    else if (instruction.keyword === 'ARG') Object.assign(state.args, parseArg(instruction.args));
    else if (instruction.keyword === 'ENV') Object.assign(state.env, parseEnv(instruction.args, state.args));
    else if (instruction.keyword === 'COPY') copyInstruction(parseCopy(instruction.args), state, { contextDir, ignore, stages });
    else if (instruction.keyword === 'RUN' && runCommands) runInstruction(instruction.args, state, npmCi);
    else if (instruction.keyword === 'RUN') console.log(`  skipped (image set-up, no files of the app): RUN ${instruction.args}`);
    mkdirSync(join(root, state.workdir), { recursive: true });
  }
  return { ...stage, ...state };
}

function resolveInStage(workdir, path) {
  return path.startsWith('/') ? path : join(workdir, path);
}

function copyInstruction({ from, sources, destination }, state, { contextDir, ignore, stages }) {
  const target = join(state.root, resolveInStage(state.workdir, destination));
  const intoDirectory = destination.endsWith('/') || sources.length > 1;
  for (const source of sources) {
    if (from !== undefined) {
      copyFromStage(stages, from, source, target, intoDirectory);
      continue;
    }
    const paths = expandSource(contextDir, source).filter((path) => !ignore.excludes(path));
    // Docker fails the build on a source that matches nothing; so does this check.
    if (paths.length === 0) throw new Error(`COPY ${source}: no such file in the build context (or .dockerignore excludes it)`);
    for (const path of paths) copyFromContext(contextDir, ignore, path, fileTarget(join(contextDir, path), target, intoDirectory));
  }
}

/** Where COPY puts a source: a file into a directory destination keeps its name; a directory's
 *  contents go into the destination itself. */
function fileTarget(source, target, intoDirectory) {
  return intoDirectory && statSync(source).isFile() ? join(target, basename(source)) : target;
}

function copyFromStage(stages, from, source, target, intoDirectory) {
  const stage = stages.find((candidate) => candidate.name === from);
  if (!stage) throw new Error(`COPY --from=${from}: no earlier stage of that name`);
  const path = join(stage.root, resolveInStage(stage.workdir, source));
  if (!existsSync(path)) throw new Error(`COPY --from=${from} ${source}: not found in that stage`);
  // Hard links again: nothing writes into the runtime stage, --help only reads.
  copyTree(path, fileTarget(path, target, intoDirectory));
}

function runInstruction(command, state, npmCi) {
  const cwd = join(state.root, state.workdir);
  if (command === 'npm ci' && !npmCi) {
    console.log("  RUN npm ci: replaced by hard links to this checkout's node_modules (same package-lock.json)");
    linkNodeModules(join(ROOT, 'node_modules'), join(cwd, 'node_modules'));
    return;
  }
  console.log(`  RUN ${command}`);
  const started = Date.now();
  // The node running this check first on PATH: npm and the build run on it, as in the image.
  const env = { PATH: `${dirname(process.execPath)}:${process.env.PATH}`, HOME: process.env.HOME, ...state.env };
  const { status, error } = spawnSync('/bin/sh', ['-c', command], { cwd, env, stdio: 'inherit' });
  if (error || status !== 0) throw new Error(`RUN ${command} failed (${error?.message ?? `exit ${status}`})`);
  console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/** A copy of node_modules that costs no space. npm rewrites its hidden lockfile in place, and
 *  `npm prune` would thus write through a hard link into the checkout's: that file is copied. */
function linkNodeModules(source, target) {
  if (!existsSync(source)) throw new Error('node_modules is missing: run npm ci first (or pass --npm-ci)');
  copyTree(source, target);
  const hiddenLockfile = join(target, '.package-lock.json');
  if (existsSync(hiddenLockfile)) {
    unlinkSync(hiddenLockfile);
    copyFileSync(join(source, '.package-lock.json'), hiddenLockfile);
  }
}

/** Hard-links a file or a tree (cp -al, seconds for 50k files); a real copy across file systems.
 *  A directory's contents go into the target, as with COPY, whether or not it exists yet. */
function copyTree(source, target) {
  mkdirSync(dirname(target), { recursive: true });
  const from = statSync(source).isDirectory() ? `${source}/.` : source;
  if (spawnSync('cp', ['-al', from, target], { stdio: 'ignore' }).status === 0) return;
  // A half-linked tree must go first: copying over a hard link would write into its source.
  rmSync(target, { recursive: true, force: true });
  cpSync(source, target, { recursive: true, verbatimSymlinks: true });
}

// --- Entry points -----------------------------------------------------------------------------

/** Every script the image can run: its CMD, and each dist/…js the README and docs/ tell operators to run. */
function entryPoints(runtimeStage) {
  const pages = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => join('docs', name)),
  ];
  const text = pages.map((page) => readFileSync(join(ROOT, page), 'utf8')).join('\n');
  const named = [...text.matchAll(/\bdist\/[\w./-]+\.js\b/g)].map(([path]) => path);
  return [...new Set([...nodeCommand(runtimeStage).scripts, ...named])];
}

/**
 * Runs `node <script> --help` in the runtime stage with its environment and `extraEnv`, with the
 * node flags the CMD gives where it runs that script; true when it exits 0 with a usage.
 */
function helpRuns(runtimeStage, script, extraEnv = {}) {
  const cwd = join(runtimeStage.root, runtimeStage.workdir);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...runtimeStage.env, ...extraEnv };
  const { nodeFlags, scripts } = nodeCommand(runtimeStage);
  const args = [...(scripts.includes(script) ? nodeFlags : []), script, '--help'];
  const result = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8', timeout: HELP_TIMEOUT_MS });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  const ok = result.status === 0 && /usage/i.test(output);
  const detail = ok ? output.split('\n')[0] : `exit ${result.status ?? result.signal}\n${output}`;
  const given = Object.entries(extraEnv).map(([name, value]) => `${name}=${value} `);
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${given.join('')}node ${args.join(' ')}: ${detail}`);
  return ok;
}

/**
 * Whether every `node … <CMD script>` that the runtime stage's RUN lines start (the compile cache's
 * fill) gives the CMD's node flags: V8 keys its code cache by its flags, so a cache made without
 * them is not the one the CMD reads.
 */
function runsWithCmdFlags(runtimeStage) {
  const { nodeFlags, scripts } = nodeCommand(runtimeStage);
  const runs = runtimeStage.instructions.filter((instruction) => instruction.keyword === 'RUN');
  const started = runs.flatMap(({ args }) => [...args.matchAll(/\bnode((?:\s+--\S+)*)\s+(\S+\.js)\b/g)]);
  const others = started.filter(([, flags, script]) => scripts.includes(script) && flags.trim() !== nodeFlags.join(' '));
  for (const [text] of others) console.log(`FAIL RUN starts \`${text}\` without the CMD's node flags (${nodeFlags.join(' ')})`);
  return others.length === 0;
}

function main() {
  const { values } = parseArgs({ options: { 'npm-ci': { type: 'boolean' }, keep: { type: 'boolean' } } });
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  // Inside the checkout (tmp/ is ignored by git and Docker) so that hard links to node_modules work.
  const scratch = mkdtempSync(join(ROOT, 'tmp', 'image-check-'));
  const stages = parseDockerfile(readFileSync(DOCKERFILE, 'utf8'));
  const context = { contextDir: ROOT, ignore: dockerignore(ROOT, DOCKERFILE), scratch, stages: [], npmCi: Boolean(values['npm-ci']) };
  let failed = false;
  try {
    stages.forEach((stage, index) => {
      console.log(`stage ${index}${stage.name ? ` (${stage.name})` : ''}`);
      const runCommands = index < stages.length - 1;
      context.stages.push(buildStage(stage, index, { ...context, runCommands }));
    });
    const runtime = context.stages.at(-1);
    console.log(`entry points, on node ${process.version}, in the runtime stage's files:`);
    // The service's CMD again with an OTEL_* variable set: it then loads the OpenTelemetry SDK, which
    // it requires only when tracing is on (disabled, so that nothing starts).
    const tracing = nodeCommand(runtime).scripts.map((script) => () => helpRuns(runtime, script, { OTEL_SDK_DISABLED: 'true' }));
    failed = ![...entryPoints(runtime).map((script) => () => helpRuns(runtime, script)), ...tracing].map((run) => run()).every(Boolean);
    if (!runsWithCmdFlags(runtime)) failed = true;
  } catch (error) {
    console.error(`FAIL ${error.message}`);
    failed = true;
  } finally {
    if (values.keep) console.log(`kept: ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

main();
