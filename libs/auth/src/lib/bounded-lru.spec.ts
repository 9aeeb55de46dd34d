import { execFileSync } from 'node:child_process';
import { boundedLru } from './bounded-lru';

/** Memory (heap and array buffers, after a full collection) of an lru-cache made with `options`, empty, in a node of its own. */
function memoryOfAnEmptyCache(options: string): number {
  const script = `
    const { LRUCache } = require(${JSON.stringify(require.resolve('lru-cache'))});
    const used = () => (gc(), process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers);
    new LRUCache({ max: 1 }).set('warm', 1);
    const before = used();
    const cache = new LRUCache(${options});
    const grown = used() - before + cache.size;
    process.stdout.write(String(grown));
  `;
  return Number(execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' }));
}

describe('boundedLru', () => {
  it('keeps at most its number of entries, forgetting the least recently used', () => {
    const cache = boundedLru<number>(3);
    for (const key of ['a', 'b', 'c']) cache.set(key, 1);
    cache.get('a');
    cache.set('d', 1);
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd']);
    expect(cache.size).toBe(3);
  });

  it("is bounded by size because lru-cache's `max` allocates for every entry up front, and a size bound does not", () => {
    const sizeBound = memoryOfAnEmptyCache('{ maxSize: 100000, sizeCalculation: () => 1 }');
    expect(memoryOfAnEmptyCache('{ max: 100000 }')).toBeGreaterThan(2 ** 20 + sizeBound);
    expect(sizeBound).toBeLessThan(2 ** 16);
  });
});
