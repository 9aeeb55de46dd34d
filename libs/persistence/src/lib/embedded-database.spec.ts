import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedDatabaseDir, embeddedTemplateDir, seedEmbeddedDatabase } from './embedded-database';

/** The directories a test made, removed after it. */
const made: string[] = [];
function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A stand-in template: what seeding copies is the directory, whatever its files. */
function fakeTemplate(): string {
  const template = scratch('petstore-template-');
  writeFileSync(join(template, 'PG_VERSION'), '17\n');
  mkdirSync(join(template, 'base'));
  writeFileSync(join(template, 'base', '1'), 'pages');
  return template;
}

describe('seedEmbeddedDatabase', () => {
  it('copies the template into a new data directory, and nothing is left beside it', () => {
    const dataDir = scratch('petstore-data-');
    expect(seedEmbeddedDatabase(dataDir, fakeTemplate())).toBe(true);
    expect(readFileSync(join(embeddedDatabaseDir(dataDir), 'base', '1'), 'utf8')).toBe('pages');
    expect(readdirSync(dataDir)).toEqual(['pglite']);
  });

  it('fills an empty database directory too', () => {
    const dataDir = scratch('petstore-data-');
    mkdirSync(embeddedDatabaseDir(dataDir));
    expect(seedEmbeddedDatabase(dataDir, fakeTemplate())).toBe(true);
    expect(readFileSync(join(embeddedDatabaseDir(dataDir), 'PG_VERSION'), 'utf8')).toBe('17\n');
  });

  it('leaves a database directory that holds anything to PGlite', () => {
    const dataDir = scratch('petstore-data-');
    mkdirSync(embeddedDatabaseDir(dataDir));
    writeFileSync(join(embeddedDatabaseDir(dataDir), 'postmaster.opts'), '');
    expect(seedEmbeddedDatabase(dataDir, fakeTemplate())).toBe(false);
    expect(readdirSync(embeddedDatabaseDir(dataDir))).toEqual(['postmaster.opts']);
  });

  it('does nothing without a template (PGlite then runs initdb)', () => {
    const dataDir = scratch('petstore-data-');
    expect(seedEmbeddedDatabase(dataDir, join(tmpdir(), 'no-such-template'))).toBe(false);
    expect(readdirSync(dataDir)).toEqual([]);
  });
});

describe('embeddedTemplateDir', () => {
  it('is kept with the installed packages, per PGlite version', () => {
    expect(embeddedTemplateDir()).toMatch(/node_modules\/\.cache\/petstore-pglite-template\/\d+\.\d+\.\d+/);
  });
});
