import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { ApiKeyRef } from '@petstore/domain';
import { chmodSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { IssuedKeys, InvalidKeyNameError } from './issued-keys';
import { firstLine, type KeyCommand, KeyCommandError, type KeyCommandResult, parseKeyCommand } from './key-commands';

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
    case 'revoke': {
      const revocation = await keys.revoke(command.ref);
      if (!revocation) throw new KeyCommandError(`No such key: ${describeRef(command.ref)}`);
      return { revoked: revocation.key, alreadyRevoked: revocation.alreadyRevoked };
    }
  }
}

function describeRef(ref: ApiKeyRef): string {
  return 'id' in ref ? `id ${ref.id}` : `prefix ${ref.prefix}`;
}

/** Injection token: the path of the admin socket, or undefined for none. */
export const KEY_ADMIN_SOCKET_PATH = Symbol('KEY_ADMIN_SOCKET_PATH');

/** The key CLI's way into the service holding the embedded database (one process only): a 0600 socket, one JSON line each way. */
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

  onApplicationShutdown(): void {
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
