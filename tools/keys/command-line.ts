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

/** A command line that is not one of the usages, its message saying what is wrong; or a request for them (--help). */
export class UsageError extends Error {
  readonly requested: boolean;

  constructor(mistake?: string) {
    super(mistake ?? 'the usage was asked for');
    this.requested = mistake === undefined;
  }
}

const OPTIONS = { name: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

export function parseCommand(argv: string[]): KeyCommand {
  const { positionals, name, help } = parsedArgs(argv);
  if (help) throw new UsageError();
  const [verb, ...rest] = positionals;
  switch (verb) {
    case 'create':
      return createCommand(name, rest);
    case 'list':
      return listCommand(name, rest);
    case 'revoke':
      return revokeCommand(name, rest);
    case undefined:
      throw new UsageError('no command given');
    default:
      throw new UsageError(`unknown command "${verb}"`);
  }
}

function createCommand(name: string | undefined, rest: string[]): KeyCommand {
  if (name === undefined) throw new UsageError('create needs --name <name>');
  if (rest.length > 0) throw new UsageError(`create takes only --name <name>; unexpected ${quoted(rest)}`);
  return { command: 'create', name };
}

function listCommand(name: string | undefined, rest: string[]): KeyCommand {
  if (name !== undefined) throw new UsageError('list takes no --name');
  if (rest.length > 0) throw new UsageError(`list takes no argument; unexpected ${quoted(rest)}`);
  return { command: 'list' };
}

function revokeCommand(name: string | undefined, [ref, ...extra]: string[]): KeyCommand {
  if (name !== undefined) throw new UsageError('revoke takes no --name');
  if (ref === undefined) throw new UsageError('revoke needs <id|prefix|key>');
  if (extra.length > 0) throw new UsageError(`revoke takes one key; unexpected ${quoted(extra)}`);
  return { command: 'revoke', ref: parseRef(ref) };
}

function quoted(words: string[]): string {
  return words.map((word) => `"${word}"`).join(' ');
}

/**
 * The words and options of a command line. Read leniently, and then checked here, so that a
 * refusal can name the option at fault (strict parseArgs only has a message of its own).
 */
function parsedArgs(argv: string[]): { positionals: string[]; name?: string; help: boolean } {
  const { positionals, tokens } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  let name: string | undefined;
  let help = false;
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const mistake = optionMistake(token);
    if (mistake) throw new UsageError(mistake);
    if (token.name === 'name') name = token.value;
    else help = true;
  }
  return { positionals, name, help };
}

type OptionToken = { name: string; rawName: string; value?: string; inlineValue?: boolean };

function optionMistake({ name, rawName, value, inlineValue }: OptionToken): string | undefined {
  if (name === 'help') return value === undefined ? undefined : `${rawName} takes no value`;
  if (name !== 'name') return `unknown option "${rawName}"`;
  if (value === undefined) return `${rawName} needs a value`;
  // As strict parseArgs: `--name --help` has most likely forgotten the name.
  if (!inlineValue && /^-./.test(value)) return `${rawName} needs a value (for a name that starts with "-": --name=${value})`;
  return undefined;
}

/** A key id, its public prefix, or the whole key (the usual case of "this key leaked"). */
function parseRef(text: string): ApiKeyRef {
  if (/^\d+$/.test(text)) return { id: text };
  if (/^ps_[0-9a-f]{12}$/.test(text)) return { prefix: text };
  const key = parseApiKey(text);
  if (key) return { prefix: key.prefix };
  throw new KeyCommandError(`${text} is neither a key id, a key prefix (ps_ and 12 hex digits) nor a key`);
}
