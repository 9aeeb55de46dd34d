import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirInUseError, lockDataDir } from './data-dir-lock';

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
});
