import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IssuedKeys } from './issued-keys';
import { KeyAdminSocket } from './key-admin';
import { KeyCommandError, parseKeyCommand, sendKeyCommand } from './key-commands';

describe('parseKeyCommand', () => {
  it.each([
    ['{"command":"list"}', { command: 'list' }],
    ['{"command":"create","name":"ci"}', { command: 'create', name: 'ci' }],
    ['{"command":"revoke","ref":{"id":"7"}}', { command: 'revoke', ref: { id: '7' } }],
    ['{"command":"revoke","ref":{"prefix":"ps_0123456789ab"}}', { command: 'revoke', ref: { prefix: 'ps_0123456789ab' } }],
  ])('reads %s', (line, command) => {
    expect(parseKeyCommand(line)).toEqual(command);
  });

  it.each([
    ['not JSON', 'list'],
    ['null', 'null'],
    ['an unknown command', '{"command":"drop"}'],
    ['create without a name', '{"command":"create"}'],
    ['revoke without a key', '{"command":"revoke"}'],
    ['revoke with a numeric id', '{"command":"revoke","ref":{"id":7}}'],
  ])('refuses %s', (_label, line) => {
    expect(() => parseKeyCommand(line)).toThrow(KeyCommandError);
  });
});

describe('KeyAdminSocket', () => {
  const keys = { list: jest.fn(), create: jest.fn(), revoke: jest.fn() };
  // Made in beforeAll, not as the file is read: a run that selects none of these tests makes no folder to leave behind.
  let dir: string;
  let path: string;
  let socket: KeyAdminSocket;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'key-admin-'));
    path = join(dir, 'admin.sock');
    socket = new KeyAdminSocket(path, keys as unknown as IssuedKeys);
    return socket.onApplicationBootstrap();
  });
  afterAll(() => {
    socket.onApplicationShutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is open to its owner only', () => {
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('runs a command for a client and answers with its result', async () => {
    keys.create.mockResolvedValueOnce({ key: { id: '1', name: 'ci' }, token: 'ps_token' });
    await expect(sendKeyCommand(path, { command: 'create', name: 'ci' })).resolves.toEqual({
      created: { id: '1', name: 'ci' },
      token: 'ps_token',
    });
    expect(keys.create).toHaveBeenCalledWith('ci');
  });

  it('answers a revocation with the key, and whether it was revoked already', async () => {
    const key = { id: '5', name: 'ci', prefix: 'ps_0123456789ab', revokedAt: new Date('2025-01-02T03:04:05Z') };
    keys.revoke.mockResolvedValueOnce({ key, alreadyRevoked: false }).mockResolvedValueOnce({ key, alreadyRevoked: true });
    const answer = { revoked: { ...key, revokedAt: '2025-01-02T03:04:05.000Z' } };
    await expect(sendKeyCommand(path, { command: 'revoke', ref: { id: '5' } })).resolves.toEqual({ ...answer, alreadyRevoked: false });
    await expect(sendKeyCommand(path, { command: 'revoke', ref: { id: '5' } })).resolves.toEqual({ ...answer, alreadyRevoked: true });
  });

  it.each([
    [{ id: '5' }, 'No such key: id 5'],
    [{ prefix: 'ps_0123456789ab' }, 'No such key: prefix ps_0123456789ab'],
  ])('refuses to revoke a key that does not exist, naming it: %p', async (ref, message) => {
    keys.revoke.mockResolvedValueOnce(undefined);
    await expect(sendKeyCommand(path, { command: 'revoke', ref })).rejects.toThrow(new KeyCommandError(message));
  });

  it('passes a refusal on to the client, and hides an internal failure', async () => {
    keys.list.mockRejectedValueOnce(new Error('relation "api_keys" does not exist'));
    await expect(sendKeyCommand(path, { command: 'list' })).rejects.toThrow('The service could not run the command; see its log');
    await expect(sendKeyCommand(path, { command: 'drop' } as never)).rejects.toThrow('Unknown command');
  });

  it('tells a client when no service listens', async () => {
    await expect(sendKeyCommand(join(dir, 'none.sock'), { command: 'list' })).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('KeyAdminSocket where no socket can be made', () => {
  it('lets the service start without it', async () => {
    const socket = new KeyAdminSocket(join('/nonexistent-dir', 'x'.repeat(120), 'admin.sock'), {} as IssuedKeys);
    await expect(socket.onApplicationBootstrap()).resolves.toBeUndefined();
    expect(() => socket.onApplicationShutdown()).not.toThrow();
  });
});
