import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildInfoOf } from './build-info';

describe('buildInfoOf', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'petstore-build-info-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("takes the version of the nearest package.json above the module, the deployment's commit and Node's version", () => {
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'petstore', version: '9.8.7' }));
    const moduleDir = join(root, 'dist/apps/api/src');
    mkdirSync(moduleDir, { recursive: true });
    expect(buildInfoOf({ gitCommit: '0123abcd' }, moduleDir)).toEqual({ version: '9.8.7', commit: '0123abcd', node: process.version });
  });

  it('says unknown for a commit the deployment does not name', () => {
    writeFileSync(join(root, 'package.json'), JSON.stringify({ version: '1.2.3' }));
    expect(buildInfoOf({ gitCommit: undefined }, root).commit).toBe('unknown');
  });
});
