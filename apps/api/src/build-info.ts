import type { AppConfig } from '@petstore/config';
import type { BuildInfo } from '@petstore/observability';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const UNKNOWN = 'unknown';

/** The running build: the nearest package.json's version above this module (sources, dist/, bundle, image), GIT_COMMIT, Node's. */
export function buildInfoOf(config: Pick<AppConfig, 'gitCommit'>, moduleDir = __dirname): BuildInfo {
  return { version: packageVersionAbove(moduleDir), commit: config.gitCommit ?? UNKNOWN, node: process.version };
}

function packageVersionAbove(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    try {
      const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown };
      return typeof version === 'string' ? version : UNKNOWN;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (dirname(dir) === dir) return UNKNOWN;
  }
}
