// Node socket errors that mean the server cannot be reached.
const NETWORK_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
// SQLSTATEs of a server that is shutting down, starting up or out of connections.
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
// node-postgres reports lost connections and its own timeouts with these messages and no code.
const DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Connection refused/i;

/** Whether an error from the driver means "the database is unreachable" rather than "this query is wrong". */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_ERRORS.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08')) return true;
  }
  if (error instanceof AggregateError) return error.errors.some(isConnectionFailure);
  return DRIVER_MESSAGES.test(error.message);
}
