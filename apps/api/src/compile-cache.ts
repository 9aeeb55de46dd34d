// main.ts imports this first: the cache covers only modules loaded after it (docs/performance.md, "Start-up and memory").
import { enableCompileCache } from 'node:module';
import { join } from 'node:path';

/** node_modules/.cache (run from dist/apps/api/src); Node checks each entry against its source, so nothing stale runs. */
export const COMPILE_CACHE_DIR = join(__dirname, '../../../../node_modules/.cache/node-compile-cache');

enableCompileCache(process.env.NODE_COMPILE_CACHE || COMPILE_CACHE_DIR);
