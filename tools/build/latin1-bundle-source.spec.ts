import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { latin1Source } from './latin1-bundle-source.mjs';

const ascii = async (code: string) => (await esbuild.transform(code, { charset: 'ascii', loader: 'js' })).code;

/**
 * Heap used, after a full collection, by one loaded file of `size` characters: all Latin-1, or
 * with one character beyond it. Measured in a node of its own, which reads the file as the
 * service's node reads the bundle.
 */
function heapOfLoadedFile(size: number, oneCharacter: string): number {
  const script = `
    const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
    const { join } = require('node:path');
    const dir = mkdtempSync(join(require('node:os').tmpdir(), 'latin1-'));
    const file = join(dir, 'source.js');
    writeFileSync(file, 'module.exports = () => 1; /* ' + 'x'.repeat(${size}) + ${JSON.stringify(oneCharacter)} + ' */');
    gc();
    const before = process.memoryUsage().heapUsed;
    const loaded = require(file);
    gc();
    const grown = process.memoryUsage().heapUsed - before + loaded();
    process.stdout.write(String(grown));
    rmSync(dir, { recursive: true });
  `;
  return Number(execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' })) - 1;
}

describe('latin1Source', () => {
  it("V8 holds a loaded file's source one byte per character if all are Latin-1, else two", () => {
    const size = 8 * 2 ** 20;
    const latin1 = heapOfLoadedFile(size, 'é') / size;
    // Node 26's V8 keeps a loaded file's source off the heap: the rewrite saves nothing there, and must cost nothing.
    if (latin1 < 0.5) return expect(heapOfLoadedFile(size, '≥') / size).toBeLessThan(0.5);
    expect(latin1).toBeCloseTo(1, 0);
    expect(heapOfLoadedFile(size, '≥') / size).toBeCloseTo(2, 0);
  });

  it("esbuild's ascii charset escapes what is outside ASCII in the code, not in the comments it keeps", async () => {
    const code = await ascii('const s = "≥", t = `—${s}`, d\u00e9 = 1; class A { /** ≥ 0 é */ m() {} } const o = { /** — */ k: 1 };');
    expect(code.match(/[^\x00-\x7f]/g)).toEqual(['≥', 'é', '—']);
  });

  it('makes what is outside Latin-1 in comments "?"', async () => {
    const code = await ascii('const s = "≥"; class A { /** ≥ 0 é */ m() { return s; } }');
    const latin1 = (await latin1Source(esbuild, code)) as string;
    expect(latin1).toBe(code.replace('/** ≥ 0 é */', '/** ? 0 é */'));
  });

  it('leaves the source as it is, and says so, where esbuild kept them in a regular expression or a tagged template', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const code of ['class A { /** ≥ */ m() { return /[≥]/; } }', 'class A { /** ≥ */ m() { return String.raw`≥`; } }']) {
      const escaped = await ascii(code);
      expect(escaped.match(/≥/g)).toHaveLength(2);
      expect(await latin1Source(esbuild, escaped)).toBe(escaped);
    }
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});
