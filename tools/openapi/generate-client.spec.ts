import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

// A client not regenerated after the document changed fails `npm test`, not only CI's diff. The
// generator runs as `npm run openapi` runs it (openapi-typescript is an ES module Jest cannot load).
describe('the committed typed client (libs/client/src/generated)', () => {
  it('is what the committed document generates', () => {
    const run = spawnSync('npm', ['run', '-s', 'openapi:client', '--', '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr.trim()).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);
});
