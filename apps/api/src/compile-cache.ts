// Node's on-disk compile cache (Node 22.1 and later; docs/performance.md, "Start-up and memory"): V8's code for
// every module loaded after this one is kept on disk, and later starts read it instead of compiling
// those modules again. main.ts imports this module before any other. Node 20 has no such cache:
// nothing happens there. NODE_COMPILE_CACHE names another directory, NODE_DISABLE_COMPILE_CACHE=1
// turns it off; a directory that cannot be written leaves the cache as it is, without a word.
import * as nodeModule from 'node:module';
import { join } from 'node:path';

/**
 * Beside the installed packages, where tools keep their caches (this file runs from
 * dist/apps/api/src). Node keeps one subdirectory per Node version and user, and checks each entry
 * against its module's source: a rebuild or an upgrade never runs stale code, it compiles again.
 * The image fills it at build time (Dockerfile).
 */
export const COMPILE_CACHE_DIR = join(__dirname, '../../../../node_modules/.cache/node-compile-cache');

const { enableCompileCache } = nodeModule as { enableCompileCache?: (directory?: string) => unknown };
enableCompileCache?.(process.env.NODE_COMPILE_CACHE || COMPILE_CACHE_DIR);
