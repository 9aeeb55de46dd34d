import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { developmentApiKey } from './dev-api-key';

describe('developmentApiKey', () => {
  let parent: string;

  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), 'petstore-dev-key-'));
  });

  afterEach(() => {
    rmSync(parent, { recursive: true, force: true });
  });

  it('creates a key once and keeps it, in a file and directory of the owner alone', () => {
    const dataDir = join(parent, 'data');
    const first = developmentApiKey(dataDir);
    const second = developmentApiKey(dataDir);

    expect(first.created).toBe(true);
    expect(first.file).toBe(join(dataDir, 'dev-api-key'));
    expect(second).toEqual({ ...first, created: false });
    expect(readFileSync(join(dataDir, 'dev-api-key'), 'utf8')).toBe(`${first.key}\n`);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dataDir, 'dev-api-key')).mode & 0o777).toBe(0o600);
  });
});
