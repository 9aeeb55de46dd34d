// The key CLI's command line: what `npm run keys -- …` was asked to do, or why that is no command.
import { type KeyCommand, KeyCommandError, parseApiKey } from '@petstore/auth/key-commands';
import type { ApiKeyRef } from '@petstore/domain';
import { parseArgs } from 'node:util';

export const USAGE = `Usage: npm run keys -- <command>

  create --name <name>      Issue a key. It is printed once, on stdout; only its hash is kept.
  list                      Every key: id, name, prefix, created, last used, revoked.
  revoke <id|prefix|key>    Revoke a key. Refused from the next request on
                            (by other instances within a second).

Works on DATABASE_URL, or else on the embedded database in DATA_DIR (default .data),
through the running service when there is one.`;

/** A command line that is not one of the usages; `requested` when it asked for them (--help). */
export class UsageError extends Error {
  constructor(readonly requested = false) {
    super('usage');
  }
}

export function parseCommand(argv: string[]): KeyCommand {
  const { positionals, values } = parsedArgs(argv);
  const [verb, ...rest] = positionals;
  if (values.help) throw new UsageError(true);
  if (verb === 'create' && rest.length === 0 && values.name !== undefined) return { command: 'create', name: values.name };
  if (verb === 'list' && rest.length === 0 && values.name === undefined) return { command: 'list' };
  if (verb === 'revoke' && rest.length === 1 && values.name === undefined) return { command: 'revoke', ref: parseRef(rest[0]) };
  throw new UsageError();
}

/** The options and words of a command line; an unknown option, or one without its value, is no usage. */
function parsedArgs(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: { name: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS_')) throw new UsageError();
    throw error;
  }
}

/** A key id, its public prefix, or the whole key (the usual case of "this key leaked"). */
function parseRef(text: string): ApiKeyRef {
  if (/^\d+$/.test(text)) return { id: text };
  if (/^ps_[0-9a-f]{12}$/.test(text)) return { prefix: text };
  const key = parseApiKey(text);
  if (key) return { prefix: key.prefix };
  throw new KeyCommandError(`${text} is neither a key id, a key prefix (ps_ and 12 hex digits) nor a key`);
}
