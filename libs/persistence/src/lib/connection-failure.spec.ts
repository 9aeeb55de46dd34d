import { isConnectionFailure } from './connection-failure';

function errorWithCode(code: string, message = 'driver error'): Error {
  return Object.assign(new Error(message), { code });
}

describe('isConnectionFailure', () => {
  it.each([
    ['a refused connection', errorWithCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', errorWithCode('ECONNRESET')],
    ['an unknown host', errorWithCode('ENOTFOUND')],
    ['an administrator shutdown (57P01)', errorWithCode('57P01', 'terminating connection due to administrator command')],
    ['a server starting up (57P03)', errorWithCode('57P03')],
    ['too many connections (53300)', errorWithCode('53300')],
    ['a connection failure (08006)', errorWithCode('08006')],
    ['a connection exception (08000)', errorWithCode('08000')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('timeout exceeded when trying to connect')],
    ['every address refused', new AggregateError([errorWithCode('ECONNREFUSED'), errorWithCode('ECONNREFUSED')], '')],
  ])('is true for %s', (_label, error) => {
    expect(isConnectionFailure(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', errorWithCode('23505', 'duplicate key value violates unique constraint "pets_pkey"')],
    ['a syntax error', new Error('syntax')],
    ['a syntax error with its SQLSTATE (42601)', errorWithCode('42601', 'syntax error at or near "SELEC"')],
    ['an AggregateError of query errors', new AggregateError([new Error('syntax'), errorWithCode('23505')], '')],
    ['a non-error', 'ECONNREFUSED'],
    ['an object that only looks like an error', { code: 'ECONNREFUSED', message: 'Connection terminated' }],
    ['undefined', undefined],
  ])('is false for %s', (_label, error) => {
    expect(isConnectionFailure(error)).toBe(false);
  });
});
