// `npm start`: the service as its image runs it (issue 46): the bundle `npm run build` made, started with the node flags of
// the Dockerfile's CMD, read from there (tools/image/dockerfile.mjs) so that the two cannot differ.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOCKERFILE, nodeCommand, parseDockerfile } from './image/dockerfile.mjs';

const { nodeFlags, scripts } = nodeCommand(parseDockerfile(readFileSync(DOCKERFILE, 'utf8')).at(-1));
const service = spawn(process.execPath, [...nodeFlags, join(import.meta.dirname, '..', scripts[0])], { stdio: 'inherit' });
// npm, or a terminal's Ctrl-C, signals this process: the service drains and stops as in its container.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => service.kill(signal));
service.once('exit', (code, signal) => process.exit(code ?? (signal === 'SIGTERM' || signal === 'SIGINT' ? 0 : 1)));
