import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@petstore/data-dir';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The development key kept in `dataDir`, made on first use, so a run without API_KEYS keeps one key across restarts. */
export function developmentApiKey(dataDir: string): { key: string; created: boolean; file: string } {
  const file = join(dataDir, 'dev-api-key');
  try {
    const key = readFileSync(file, 'utf8').trim();
    if (key) return { key, created: false, file };
  } catch {
    // Not created yet.
  }
  const key = `dev_${randomBytes(24).toString('base64url')}`;
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  writeFileSync(file, `${key}\n`, { mode: PRIVATE_FILE_MODE });
  return { key, created: true, file };
}
