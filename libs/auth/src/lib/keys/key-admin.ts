import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { chmodSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ApiKeyRecord, ApiKeyRef } from '@petstore/domain';
import { IssuedKeys, InvalidKeyNameError } from './issued-keys';

/** What an operator asks of the key store: the same commands for the CLI and the admin socket. */
export type KeyCommand =
  | { readonly command: 'create'; readonly name: string }
  | { readonly command: 'list' }
  | { readonly command: 'revoke'; readonly ref: ApiKeyRef };

export type KeyCommandResult =
  | { readonly created: ApiKeyRecord; readonly token: string }
  | { readonly keys: readonly ApiKeyRecord[] }
  | { readonly revoked: ApiKeyRecord | null };

/** A command the key store refuses, with a message for the operator. */
export class KeyCommandError extends Error {
  override name = 'KeyCommandError';
}

export async function runKeyCommand(keys: IssuedKeys, command: KeyCommand): Promise<KeyCommandResult> {
  switch (command.command) {
    case 'create':
      try {
        const { key, token } = await keys.create(command.name);
        return { created: key, token };
      } catch (error) {
        throw error instanceof InvalidKeyNameError ? new KeyCommandError(error.message) : error;
      }
    case 'list':
      return { keys: await keys.list() };
    case 'revoke':
      return { revoked: (await keys.revoke(command.ref)) ?? null };
  }
}

/** Injection token: the path of the admin socket, or undefined for none. */
export const KEY_ADMIN_SOCKET_PATH = Symbol('KEY_ADMIN_SOCKET_PATH');

/** Where the service on the embedded database in `dataDir` listens for key commands. */
export function keyAdminSocketPath(dataDir: string): string {
  return join(dataDir, 'admin.sock');
}

/**
 * A Unix socket, readable and writable by the service's user only, on which the key CLI asks
 * the running service to manage keys. The embedded database allows one process, so while the
 * service runs it is the only one that may write to it.
 * Protocol: one JSON KeyCommand line in, one JSON line out ({ result } or { error }).
 */
@Injectable()
export class KeyAdminSocket implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(KeyAdminSocket.name);
  private server?: Server;

  constructor(
    @Inject(KEY_ADMIN_SOCKET_PATH) private readonly path: string | undefined,
    private readonly keys: IssuedKeys,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.path) return;
    // A socket file left by a process that died; the data directory's lock makes this process its only owner.
    rmSync(this.path, { force: true });
    const server = createServer((socket) => void this.serve(socket));
    try {
      server.listen(this.path);
      await once(server, 'listening');
      chmodSync(this.path, 0o600);
      this.server = server;
    } catch (error) {
      // The service still serves; the CLI then says that the data directory is in use.
      server.close();
      this.logger.warn(`No admin socket at ${this.path} (${String(error)}): the key CLI cannot reach this process`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.server) return;
    this.server.close();
    rmSync(this.path as string, { force: true });
  }

  private async serve(socket: Socket): Promise<void> {
    socket.on('error', () => socket.destroy());
    const reply = (answer: object) => socket.end(`${JSON.stringify(answer)}\n`);
    try {
      const line = await firstLine(socket);
      reply({ result: await runKeyCommand(this.keys, parseKeyCommand(line)) });
    } catch (error) {
      if (!(error instanceof KeyCommandError)) this.logger.error(`Key command failed: ${String(error)}`);
      reply({ error: error instanceof KeyCommandError ? error.message : 'The service could not run the command; see its log' });
    }
  }
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

async function firstLine(socket: Socket): Promise<string> {
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
