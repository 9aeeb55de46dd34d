import { KeyCommandError } from '@petstore/auth/key-commands';
import { parseCommand } from './command-line';

// What the command line asks for; the process around it (exit codes, stdout and stderr, the
// database): apps/api-e2e's api-keys.e2e-spec.ts.

const KEY = `ps_0123456789ab_${'A'.repeat(43)}`;

describe('the key CLI command line', () => {
  it.each([
    [['create', '--name', 'ci'], { command: 'create', name: 'ci' }],
    [['create', '--name', ''], { command: 'create', name: '' }],
    [['list'], { command: 'list' }],
    [['revoke', '7'], { command: 'revoke', ref: { id: '7' } }],
    [['revoke', '9223372036854775808'], { command: 'revoke', ref: { id: '9223372036854775808' } }],
    [['revoke', '01'], { command: 'revoke', ref: { id: '01' } }],
    [['revoke', 'ps_0123456789ab'], { command: 'revoke', ref: { prefix: 'ps_0123456789ab' } }],
    [['revoke', KEY], { command: 'revoke', ref: { prefix: 'ps_0123456789ab' } }],
  ])('reads %p', (argv, command) => {
    expect(parseCommand(argv)).toEqual(command);
  });

  it.each([[['--help']], [['-h']], [['list', '--help']]])('takes %p for a request of the usage', (argv) => {
    expect(() => parseCommand(argv)).toThrow(expect.objectContaining({ requested: true }));
  });

  it.each([
    ['no command', []],
    ['create without a name', ['create']],
    ['an unknown command', ['delete', '1']],
    ['revoke without a key', ['revoke']],
    ['two keys to revoke', ['revoke', '1', '2']],
    ['list with a name', ['list', '--name', 'ci']],
    ['a name without its value', ['create', '--name']],
    ['an unknown option', ['list', '--all']],
  ])('refuses %s with the usage', (_case, argv) => {
    expect(() => parseCommand(argv)).toThrow(expect.objectContaining({ requested: false }));
  });

  it('refuses a reference that is no key id, prefix or key, naming the three', () => {
    expect(() => parseCommand(['revoke', 'hello'])).toThrow(
      new KeyCommandError('hello is neither a key id, a key prefix (ps_ and 12 hex digits) nor a key'),
    );
  });
});
