// Adds the lockfile entries npm leaves out when the registry it installs from has no copy of a
// platform-specific optional package (another OS's @swc/core or unrs-resolver binary). npm 11's
// `npm ci` refuses a lockfile that lacks them; as optional packages for other platforms they are
// never downloaded here. Run after changing dependencies: `npm run lock:complete`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
let added = 0;
for (const [path, meta] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const entry = `node_modules/${name}`;
    const nested = `${path}/node_modules/${name}`;
    if (lock.packages[entry] || lock.packages[nested]) continue;
    lock.packages[entry] = { version, optional: true, ...(meta.dev ? { dev: true } : {}) };
    added++;
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} optional platform package entries added`);
