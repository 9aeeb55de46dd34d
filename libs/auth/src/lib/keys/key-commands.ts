// The admin socket's protocol without the service, so the key CLI loads neither Nest nor the database.
import type { ApiKeyRecord, ApiKeyRef } from '@petstore/domain';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** What an operator asks of the key store: the same commands for the CLI and the admin socket. */
export type KeyCommand =
  | { readonly command: 'create'; readonly name: string }
  | { readonly command: 'list' }
  | { readonly command: 'revoke'; readonly ref: ApiKeyRef };

export type KeyCommandResult =
  | { readonly created: ApiKeyRecord; readonly token: string }
  | { readonly keys: readonly ApiKeyRecord[] }
  | { readonly revoked: ApiKeyRecord; readonly alreadyRevoked: boolean };

/** A command the key store refuses, with a message for the operator. */
export class KeyCommandError extends Error {
  override name = 'KeyCommandError';
}

/** Where the service on the embedded database in `dataDir` listens for key commands. */
export function keyAdminSocketPath(dataDir: string): string {
  return join(dataDir, 'admin.sock');
}

/** Sends a command to the service listening on `path`; rejects with ECONNREFUSED/ENOENT when none does. */
export async function sendKeyCommand(path: string, command: KeyCommand): Promise<KeyCommandResult> {
  const socket = connect(path);
  await once(socket, 'connect');
  socket.write(`${JSON.stringify(command)}\n`);
  const answer = JSON.parse(await firstLine(socket)) as { result?: KeyCommandResult; error?: string };
  socket.destroy();
  if (answer.error !== undefined || !answer.result) throw new KeyCommandError(answer.error ?? 'The service gave no answer');
  return answer.result;
}

const MAX_LINE_LENGTH = 64 * 1024;

/** The first line a socket sends, bounded in length. */
export async function firstLine(socket: Socket): Promise<string> {
  const lines = createInterface({ input: socket, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      if (line.length > MAX_LINE_LENGTH) break;
      return line;
    }
    throw new KeyCommandError('The connection closed before a whole line arrived');
  } finally {
    lines.close();
  }
}

/** Checks a command from the socket: whoever can write to it is trusted, but not its input. */
export function parseKeyCommand(line: string): KeyCommand {
  let input: unknown;
  try {
    input = JSON.parse(line);
  } catch {
    throw new KeyCommandError('A command must be one line of JSON');
  }
  const command = (input ?? {}) as Record<string, unknown>;
  if (command['command'] === 'list') return { command: 'list' };
  if (command['command'] === 'create' && typeof command['name'] === 'string') return { command: 'create', name: command['name'] };
  if (command['command'] === 'revoke') return { command: 'revoke', ref: parseKeyRef(command['ref']) };
  throw new KeyCommandError('Unknown command');
}

function parseKeyRef(ref: unknown): ApiKeyRef {
  const fields = (ref ?? {}) as Record<string, unknown>;
  if (typeof fields['id'] === 'string') return { id: fields['id'] };
  if (typeof fields['prefix'] === 'string') return { prefix: fields['prefix'] };
  throw new KeyCommandError('A key is named by its id or its prefix');
}
