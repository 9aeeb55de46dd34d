import { LRUCache } from 'lru-cache';

/**
 * A map from strings, of at most `entries` entries that forgets the least recently used past them. The bound is
 * a size (each entry counts 1) rather than lru-cache's `max`, which allocates its arrays for every
 * entry up front, whether or not a client ever comes (docs/performance.md, "Start-up and memory");
 * a size bound grows them as entries come. The spec fails if lru-cache stops doing so.
 */
export function boundedLru<V extends NonNullable<unknown>>(entries: number): LRUCache<string, V> {
  return new LRUCache<string, V>({ maxSize: entries, sizeCalculation: () => 1 });
}
