import { LRUCache } from 'lru-cache';

/** An LRU map of at most `entries`, bounded by size, not `max`, so it grows with use: docs/performance.md, "Bounded maps". */
export function boundedLru<V extends NonNullable<unknown>>(entries: number): LRUCache<string, V> {
  return new LRUCache<string, V>({ maxSize: entries, sizeCalculation: () => 1 });
}
