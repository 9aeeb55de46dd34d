import { KeyCommandError } from '@petstore/auth/key-commands';
import { parseCommand } from './command-line';

// What the command line asks for; the process around it (exit codes, stdout and stderr, the
// database): apps/api-e2e's api-keys.e2e-spec.ts.

const KEY = `ps_0123456789ab_${'A'.repeat(43)}`;

describe('the key CLI command line', () => {
  it.each([
    [['create', '--name', 'ci'], { command: 'create', name: 'ci' }],
    [['create', '--name', ''], { command: 'create', name: '' }],
    [['create', '--name=-ci'], { command: 'create', name: '-ci' }],
    [['--name', 'ci', 'create'], { command: 'create', name: 'ci' }],
    [['list'], { command: 'list' }],
    [['revoke', '7'], { command: 'revoke', ref: { id: '7' } }],
    [['revoke', '9223372036854775808'], { command: 'revoke', ref: { id: '9223372036854775808' } }],
    [['revoke', '01'], { command: 'revoke', ref: { id: '01' } }],
    [['revoke', 'ps_0123456789ab'], { command: 'revoke', ref: { prefix: 'ps_0123456789ab' } }],
    [['revoke', KEY], { command: 'revoke', ref: { prefix: 'ps_0123456789ab' } }],
  ])('reads %p', (argv, command) => {
    expect(parseCommand(argv)).toEqual(command);
  });

  it.each([[['--help']], [['-h']], [['list', '--help']], [['delete', '--help']]])('takes %p for a request of the usage', (argv) => {
    expect(() => parseCommand(argv)).toThrow(expect.objectContaining({ requested: true }));
  });

  it.each([
    [[], 'no command given'],
    [['delete', '1'], 'unknown command "delete"'],
    [['create'], 'create needs --name <name>'],
    [['create', 'ci'], 'create needs --name <name>'],
    [['create', '--name', 'ci', 'prod'], 'create takes only --name <name>; unexpected "prod"'],
    [['list', 'all'], 'list takes no argument; unexpected "all"'],
    [['list', '--name', 'ci'], 'list takes no --name'],
    [['revoke'], 'revoke needs <id|prefix|key>'],
    [['revoke', '1', '2', '3'], 'revoke takes one key; unexpected "2" "3"'],
    [['revoke', '1', '--name', 'ci'], 'revoke takes no --name'],
    [['create', '--name'], '--name needs a value'],
    [['create', '--name', '--help'], '--name needs a value (for a name that starts with "-": --name=--help)'],
    [['list', '--all'], 'unknown option "--all"'],
    [['list', '-x'], 'unknown option "-x"'],
    [['list', '--all=yes'], 'unknown option "--all"'],
    [['list', '--help=yes'], '--help takes no value'],
  ])('refuses %p, saying what is wrong: %s', (argv, mistake) => {
    expect(() => parseCommand(argv)).toThrow(expect.objectContaining({ message: mistake, requested: false }));
  });

  it('refuses a reference that is no key id, prefix or key, naming the three', () => {
    expect(() => parseCommand(['revoke', 'hello'])).toThrow(
      new KeyCommandError('hello is neither a key id, a key prefix (ps_ and 12 hex digits) nor a key'),
    );
  });
});
