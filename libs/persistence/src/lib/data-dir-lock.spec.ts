import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@petstore/data-dir';
import { transformSync } from 'esbuild';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirInUseError, lockDataDir } from './data-dir-lock';

/**
 * A process that, once `go` exists, takes the lock and prints the outcome ('locked' or the
 * error's name), then holds the lock until `release` exists. It runs this module, compiled, and
 * gives up after a minute of waiting, should the test have failed.
 */
const TAKER = `
const { existsSync } = require('node:fs');
const [moduleFile, dataDir, go, release] = process.argv.slice(2);
const { lockDataDir } = require(moduleFile);
const deadline = Date.now() + 60000;
const waitFor = (file) => {
  while (!existsSync(file)) {
    if (Date.now() > deadline) process.exit(2);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
  }
};
process.stdout.write('ready\\n');
waitFor(go);
let outcome = 'locked';
try { lockDataDir(dataDir); } catch (error) { outcome = error.name; }
process.stdout.write(outcome + '\\n');
if (outcome === 'locked') waitFor(release);
`;

/** A taker process and the lines it printed: `line(n)` resolves with its nth, or rejects if it exits before. */
function taker(args: readonly string[]) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  const lines = () => text.split('\n').slice(0, -1);
  const exited = once(child, 'exit');
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const line = async (index: number): Promise<string> => {
    for (;;) {
      if (lines().length > index) return lines()[index];
      if (child.exitCode !== null) throw new Error(`a taker exited with ${child.exitCode} after printing ${JSON.stringify(text)}`);
      await Promise.race([once(child.stdout, 'data'), exited]);
    }
  };
  return { child, line, exited };
}

describe('lockDataDir', () => {
  let dataDir: string;
  let lockFile: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'petstore-lock-'));
    lockFile = join(dataDir, 'petstore.lock');
  });

  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes a lock file holding this process id', () => {
    lockDataDir(dataDir);
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
  });

  it('creates a data directory that does not exist yet', () => {
    const nested = join(dataDir, 'a', 'b');
    lockDataDir(nested);
    expect(existsSync(join(nested, 'petstore.lock'))).toBe(true);
  });

  it('creates the data directory and the lock file for the owner alone', () => {
    const nested = join(dataDir, 'a', 'b');
    lockDataDir(nested);
    expect(statSync(nested).mode & 0o777).toBe(0o700);
    expect(statSync(join(nested, 'petstore.lock')).mode & 0o777).toBe(0o600);
  });

  it('lets the same process lock the directory again', () => {
    lockDataDir(dataDir);
    expect(() => lockDataDir(dataDir)).not.toThrow();
  });

  it('refuses a directory locked by another live process', () => {
    writeFileSync(lockFile, String(process.ppid));

    expect(() => lockDataDir(dataDir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dataDir)).toThrow(`in use by process ${process.ppid}`);
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.ppid));
  });

  it('takes over a lock left by a process id that cannot exist', () => {
    writeFileSync(lockFile, '999999999');
    lockDataDir(dataDir);
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
  });

  it('takes over a lock left by a process that has ended', () => {
    const { pid } = spawnSync(process.execPath, ['-e', '']);
    writeFileSync(lockFile, String(pid));

    lockDataDir(dataDir);
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
  });

  it.each(['', 'garbage', '-5', '0'])('takes over a lock file holding %p', (content) => {
    writeFileSync(lockFile, content);
    lockDataDir(dataDir);
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
  });

  it('removes the lock file on release', () => {
    const release = lockDataDir(dataDir);
    release();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('can be released twice', () => {
    const release = lockDataDir(dataDir);
    release();
    expect(() => release()).not.toThrow();
  });

  it('leaves the lock of a later holder alone when released again', () => {
    const release = lockDataDir(dataDir);
    release();
    writeFileSync(lockFile, String(process.ppid));

    release();
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.ppid));
  });

  it('clears a takeover left by a process that has ended, then takes the stale lock', () => {
    const { pid } = spawnSync(process.execPath, ['-e', '']);
    mkdirSync(`${lockFile}.takeover`);
    writeFileSync(join(`${lockFile}.takeover`, `${pid}.left`), '');
    writeFileSync(lockFile, '999999999');

    lockDataDir(dataDir);
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    expect(readdirSync(dataDir)).toEqual(['petstore.lock']);
  });

  it('waits for a live process taking a stale lock over, then gives up naming both', () => {
    mkdirSync(`${lockFile}.takeover`);
    writeFileSync(join(`${lockFile}.takeover`, `${process.ppid}.live`), '');
    writeFileSync(lockFile, '999999999');

    expect(() => lockDataDir(dataDir)).toThrow(
      `its lock names process 999999999, which is not running, and process ${process.ppid} is still taking it over`,
    );
    expect(readFileSync(lockFile, 'utf8')).toBe('999999999');
    expect(readdirSync(`${lockFile}.takeover`)).toEqual([`${process.ppid}.live`]);
  }, 20_000);

  describe('taken by processes at once', () => {
    let work: string;
    let moduleFile: string;

    beforeAll(() => {
      work = mkdtempSync(join(tmpdir(), 'petstore-lock-race-'));
      // This module compiled, with @petstore/data-dir's two modes in place of the library.
      const compiled = transformSync(readFileSync(join(__dirname, 'data-dir-lock.ts'), 'utf8'), { loader: 'ts', format: 'cjs' }).code;
      const core = 'require("@petstore/data-dir")';
      expect(compiled).toContain(core);
      moduleFile = join(work, 'data-dir-lock.js');
      writeFileSync(moduleFile, compiled.replace(core, JSON.stringify({ PRIVATE_DIR_MODE, PRIVATE_FILE_MODE })));
      writeFileSync(join(work, 'taker.js'), TAKER);
    });

    afterAll(() => rmSync(work, { recursive: true, force: true }));

    /** Starts `takers` processes, lets them take the lock at once, and returns who got what. */
    async function race(round: number, takers: number, staleLock?: string, endedTakeover?: number) {
      const dir = join(work, `round-${round}`);
      mkdirSync(dir);
      if (staleLock !== undefined) writeFileSync(join(dir, 'petstore.lock'), staleLock);
      if (endedTakeover !== undefined) {
        mkdirSync(join(dir, 'petstore.lock.takeover'));
        writeFileSync(join(dir, 'petstore.lock.takeover', `${endedTakeover}.left`), '');
      }
      const [go, release] = [join(work, `go-${round}`), join(work, `release-${round}`)];
      const started = Array.from({ length: takers }, () => taker([join(work, 'taker.js'), moduleFile, dir, go, release]));
      try {
        await Promise.all(started.map(({ line }) => line(0)));
        writeFileSync(go, '');
        const results = await Promise.all(started.map(({ line }) => line(1)));
        const holder = readFileSync(join(dir, 'petstore.lock'), 'utf8');
        const winners = started.filter((_, index) => results[index] === 'locked').map(({ child }) => String(child.pid));
        return { results: [...results].sort(), winners, holder, files: readdirSync(dir) };
      } finally {
        writeFileSync(release, '');
        await Promise.all(started.map(({ exited }) => exited));
      }
    }

    // What a lock judged stale by its age (proper-lockfile's mtime, refreshed on a timer) gets wrong: a
    // holder stopped (Ctrl-Z) or whose event loop is blocked (PGlite runs its queries in WebAssembly on
    // the main thread) refreshes nothing, its lock ages, and a second process would open the database
    // beside it (docs/decisions/0006-database-access-public-api.md).
    it('refuses a second process while the holder is stopped, however old its lock looks', async () => {
      const dir = join(work, 'stopped-holder');
      const [go, release] = [join(work, 'go-stopped'), join(work, 'release-stopped')];
      const holder = taker([join(work, 'taker.js'), moduleFile, dir, go, release]);
      try {
        await holder.line(0);
        writeFileSync(go, '');
        expect(await holder.line(1)).toBe('locked');
        holder.child.kill('SIGSTOP');
        const anHourAgo = new Date(Date.now() - 3_600_000);
        for (const name of readdirSync(dir)) utimesSync(join(dir, name), anHourAgo, anHourAgo);
        utimesSync(dir, anHourAgo, anHourAgo);
        expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
      } finally {
        holder.child.kill('SIGCONT');
        writeFileSync(release, '');
        await holder.exited;
      }
    }, 60_000);

    let rounds = 0;
    /** A pid no process has any more. */
    const ended = () => spawnSync(process.execPath, ['-e', '']).pid;

    it.each([
      [5, 2, 'no lock', undefined, false],
      [5, 2, 'a stale lock', '999999999', false],
      [5, 2, 'a stale lock', 'garbage', false],
      // Three or more over a stale lock could once leave two holding it.
      [8, 3, 'a stale lock', '999999999', false],
      [8, 2, 'a stale lock and an ended takeover', '999999999', true],
    ])(
      'gives it to exactly one of %i, %i rounds, over %s (%p)',
      async (takers, roundsOf, _what, staleLock, endedTakeover) => {
        for (let round = 0; round < roundsOf; round++) {
          const { results, winners, holder, files } = await race(rounds++, takers, staleLock, endedTakeover ? ended() : undefined);
          expect(results).toEqual([...Array<string>(takers - 1).fill('DataDirInUseError'), 'locked']);
          expect(winners).toEqual([holder]);
          // Nothing left beside it: no lock written aside, no takeover.
          expect(files).toEqual(['petstore.lock']);
        }
      },
      180_000,
    );
  });
});
