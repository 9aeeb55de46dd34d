import { isLinkFailure, isRefusal } from './database-errors';

function errorWithCode(code: string, message = 'driver error'): Error {
  return Object.assign(new Error(message), { code });
}

describe('isRefusal', () => {
  it.each([
    ['a read-only database (25006)', errorWithCode('25006', 'cannot execute INSERT in a read-only transaction')],
    ['a statement timeout or cancel (57014)', errorWithCode('57014', 'canceling statement due to statement timeout')],
    ['a lock timeout (55P03)', errorWithCode('55P03', 'canceling statement due to lock timeout')],
    ['an administrator shutdown (57P01)', errorWithCode('57P01', 'terminating connection due to administrator command')],
    ['a server starting up (57P03)', errorWithCode('57P03')],
    ['too many connections (53300)', errorWithCode('53300')],
    ['a full disk (53100)', errorWithCode('53100')],
    ['a connection failure (08006)', errorWithCode('08006')],
    ['a deadlock (40P01)', errorWithCode('40P01')],
    ['an I/O error (58030)', errorWithCode('58030')],
  ])('is true for %s', (_label, error) => {
    expect(isRefusal(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', errorWithCode('23505', 'duplicate key value violates unique constraint "pets_pkey"')],
    ['a syntax error (42601)', errorWithCode('42601', 'syntax error at or near "SELEC"')],
    ['a message that merely reads like a refusal', new Error('read-only transaction')],
    ['a network error', errorWithCode('ECONNREFUSED')],
    ['an object that only looks like an error', { code: '25006' }],
    ['undefined', undefined],
  ])('is false for %s', (_label, error) => {
    expect(isRefusal(error)).toBe(false);
  });
});

describe('isLinkFailure', () => {
  it.each([
    ['a refused connection', errorWithCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', errorWithCode('ECONNRESET')],
    ['an unknown host', errorWithCode('ENOTFOUND')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('timeout exceeded when trying to connect')],
    ['every address refused', new AggregateError([errorWithCode('ECONNREFUSED'), errorWithCode('ECONNREFUSED')], '')],
  ])('is true for %s', (_label, error) => {
    expect(isLinkFailure(error)).toBe(true);
  });

  it.each([
    ['a server error, whatever its message says', errorWithCode('57P01', 'Connection terminated by administrator')],
    ['a syntax error', new Error('syntax')],
    ['an AggregateError of query errors', new AggregateError([new Error('syntax'), errorWithCode('23505')], '')],
    ['a non-error', 'ECONNREFUSED'],
    ['an object that only looks like an error', { code: 'ECONNREFUSED', message: 'Connection terminated' }],
    ['undefined', undefined],
  ])('is false for %s', (_label, error) => {
    expect(isLinkFailure(error)).toBe(false);
  });
});
