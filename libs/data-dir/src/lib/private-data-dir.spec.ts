import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTreePrivate, preparePrivateDataDir } from './private-data-dir';

const modeOf = (path: string) => statSync(path).mode & 0o7777;

describe('preparePrivateDataDir', () => {
  let parent: string;
  let warnings: string[];
  const warn = (message: string) => warnings.push(message);

  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), 'petstore-private-'));
    warnings = [];
  });

  afterEach(() => {
    rmSync(parent, { recursive: true, force: true });
  });

  it('creates a missing directory with mode 0700, saying nothing', () => {
    const dataDir = join(parent, 'a', 'data');
    preparePrivateDataDir(dataDir, warn);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(warnings).toEqual([]);
  });

  it.each([
    ['0755', 0o755],
    ['0750', 0o750],
    ['0711', 0o711],
    ['0777', 0o777],
    ['02775', 0o2775],
  ])('tightens an existing directory of mode %s to 0700 and says so', (shown, mode) => {
    const dataDir = join(parent, 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, mode);

    preparePrivateDataDir(dataDir, warn);

    expect(modeOf(dataDir)).toBe(0o700);
    expect(warnings).toEqual([`The data directory ${dataDir} was open to other users (mode ${shown}): its mode is now 0700`]);
  });

  it.each([
    ['0700', 0o700],
    ['0500', 0o500],
  ])('leaves a directory of mode %s that only its owner may use as it is', (_shown, mode) => {
    const dataDir = join(parent, 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, mode);

    preparePrivateDataDir(dataDir, warn);

    expect(modeOf(dataDir)).toBe(mode);
    expect(warnings).toEqual([]);
  });
});

describe('makeTreePrivate', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-private-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes group and others off every file and directory below, at any depth', () => {
    mkdirSync(join(dir, 'base', '5'), { recursive: true });
    chmodSync(join(dir, 'base'), 0o755);
    chmodSync(join(dir, 'base', '5'), 0o775);
    writeFileSync(join(dir, 'PG_VERSION'), '17', { mode: 0o666 });
    writeFileSync(join(dir, 'base', '5', '1259'), '', { mode: 0o644 });
    writeFileSync(join(dir, 'base', '5', '2619'), '', { mode: 0o600 });
    chmodSync(join(dir, 'PG_VERSION'), 0o666);

    makeTreePrivate(dir);

    expect(modeOf(join(dir, 'base'))).toBe(0o700);
    expect(modeOf(join(dir, 'base', '5'))).toBe(0o700);
    expect(modeOf(join(dir, 'PG_VERSION'))).toBe(0o600);
    expect(modeOf(join(dir, 'base', '5', '1259'))).toBe(0o600);
    expect(modeOf(join(dir, 'base', '5', '2619'))).toBe(0o600);
  });

  it('leaves symbolic links and what they point to alone', () => {
    const outside = mkdtempSync(join(tmpdir(), 'petstore-outside-'));
    try {
      writeFileSync(join(outside, 'shared'), '');
      chmodSync(join(outside, 'shared'), 0o644);
      symlinkSync(join(outside, 'shared'), join(dir, 'link'));

      makeTreePrivate(dir);

      expect(modeOf(join(outside, 'shared'))).toBe(0o644);
      expect(lstatSync(join(dir, 'link')).isSymbolicLink()).toBe(true);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
