// The Dockerfile as the image check and the benches read it: its stages, and the command the
// image runs the service with, so that the bench runs the service as the image does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DOCKERFILE = join(import.meta.dirname, '../../Dockerfile');

/** The Dockerfile's instructions, continuation lines joined, comments dropped, grouped by stage. */
export function parseDockerfile(text) {
  const stages = [];
  const logical = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim());
  for (const line of logical.filter((l) => l && !l.startsWith('#'))) {
    const [, keyword, rest] = /^(\S+)\s*(.*)$/.exec(line);
    const instruction = { keyword: keyword.toUpperCase(), args: rest, text: line };
    if (instruction.keyword === 'FROM') stages.push({ name: /\sAS\s+(\S+)$/i.exec(rest)?.[1], instructions: [] });
    else if (stages.length > 0) stages.at(-1).instructions.push(instruction);
  }
  return stages;
}

/** A stage's CMD (exec form, `["node", …flags, script, …]`): node's flags, and the scripts it runs. */
export function nodeCommand(stage) {
  const cmd = stage.instructions.findLast((instruction) => instruction.keyword === 'CMD');
  if (!cmd?.args.startsWith('[')) throw new Error('the runtime stage has no CMD in exec form (["node", "…"])');
  const [program, ...args] = JSON.parse(cmd.args);
  const firstScript = args.findIndex((arg) => arg.endsWith('.js'));
  if (program !== 'node' || firstScript < 0) throw new Error(`the runtime stage's CMD does not run a script with node: ${cmd.args}`);
  return { nodeFlags: args.slice(0, firstScript), scripts: args.filter((arg) => arg.endsWith('.js')) };
}

/** The node flags an image runs the service with (the last stage's CMD): this checkout's, or another Dockerfile's. */
export function imageNodeFlags(dockerfile = DOCKERFILE) {
  return nodeCommand(parseDockerfile(readFileSync(dockerfile, 'utf8')).at(-1)).nodeFlags;
}
