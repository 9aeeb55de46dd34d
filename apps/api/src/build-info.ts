import type { AppConfig } from '@petstore/config';
import type { BuildInfo } from '@petstore/observability';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const UNKNOWN = 'unknown';

/**
 * The running build: the version of the nearest package.json above this module (the repository's,
 * from the sources, dist/ or the bundle; the image's /app), the commit the deployment names
 * (GIT_COMMIT), and the Node.js version.
 */
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
