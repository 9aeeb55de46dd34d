import { boundedLru } from './bounded-lru';

describe('boundedLru', () => {
  it('keeps at most its number of entries, forgetting the least recently used', () => {
    const cache = boundedLru<number>(3);
    for (const key of ['a', 'b', 'c']) cache.set(key, 1);
    cache.get('a');
    cache.set('d', 1);
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd']);
    expect(cache.size).toBe(3);
  });
});
