import { chmodSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describeOn, target } from './support/api';
import { runKeysCli } from './support/keys-cli';
import { tempDir } from './support/leftovers';
import { databaseEnv, startServer, stopCleanly } from './support/server';

/** Every file and directory under `dir` (symbolic links aside) that group or others may use, with its mode. */
function openToOthers(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => ({ name, stats: lstatSync(join(dir, name)) }))
    .filter(({ stats }) => !stats.isSymbolicLink() && (stats.mode & 0o077) !== 0)
    .map(({ name, stats }) => `${name} ${(stats.mode & 0o777).toString(8)}`);
}

function expectPrivate(dataDir: string): void {
  expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  expect(readdirSync(dataDir)).toContain('dev-api-key');
  if (target === 'pglite') expect(readdirSync(join(dataDir, 'pglite')).length).toBeGreaterThan(10);
  expect(openToOthers(dataDir)).toEqual([]);
}

describeOn('pglite', 'postgres')('the data directory (the embedded database and the development key)', () => {
  // Without API_KEYS the development key is kept in DATA_DIR: on PostgreSQL too, the directory is used.
  const developmentEnv = (dataDir: string) => ({ ...databaseEnv(target), DATA_DIR: dataDir, API_KEYS: '', NODE_ENV: 'development' });

  it('is created for the service user alone, with everything in it, and stays so after shutdown', async () => {
    const dataDir = join(tempDir('data-dir'), 'data');
    const server = await startServer(developmentEnv(dataDir));
    try {
      expectPrivate(dataDir);
      expect(server.output()).not.toContain('open to other users');
    } finally {
      await stopCleanly(server);
    }
    expectPrivate(dataDir);
  });

  it('is tightened to 0700 when it was made open to others (0755), and the log says so', async () => {
    const dataDir = tempDir('data-dir');
    chmodSync(dataDir, 0o755);
    const server = await startServer(developmentEnv(dataDir));
    try {
      expectPrivate(dataDir);
      expect(server.output()).toMatch(new RegExp(`WARN.*The data directory ${dataDir} was open to other users \\(mode 0755\\)`));
    } finally {
      await server.stop();
    }
  });

  if (target === 'pglite') {
    it('is tightened as well when API keys are configured (only the embedded database uses it)', async () => {
      const dataDir = tempDir('data-dir');
      chmodSync(dataDir, 0o755);
      const server = await startServer({ DATA_DIR: dataDir });
      try {
        expect(statSync(dataDir).mode & 0o777).toBe(0o700);
        expect(openToOthers(dataDir)).toEqual([]);
        expect(server.output()).toMatch(new RegExp(`WARN.*The data directory ${dataDir} was open to other users \\(mode 0755\\)`));
      } finally {
        await server.stop();
      }
    });

    it('is tightened by the key CLI too, which warns on stderr and keeps stdout for the key', async () => {
      const dataDir = tempDir('data-dir');
      chmodSync(dataDir, 0o755);
      const { code, stdout, stderr } = await runKeysCli(['create', '--name', 'private'], { DATA_DIR: dataDir });
      expect(code).toBe(0);
      expect(stdout).toMatch(/^ps_[0-9a-f]{12}_\S+\n$/);
      expect(stderr).toContain(`The data directory ${dataDir} was open to other users (mode 0755)`);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(openToOthers(dataDir)).toEqual([]);
    });
  }
});
