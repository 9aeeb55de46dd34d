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
// node-postgres reports lost connections and its own time-outs with these messages and no code.
const DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Connection refused/i;

// SQLSTATE classes of work refused, none of it done, that may succeed later (25006 read-only, 55P03 lock_timeout, 57014 cancel…).
const REFUSING_SQLSTATE_CLASSES = new Set(['08', '25', '40', '53', '55', '57', '58']);

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** Whether the server refused the statement (a refusing SQLSTATE class): it was rolled back, and may succeed later. */
export function isRefusal(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && SQLSTATE.test(code) && REFUSING_SQLSTATE_CLASSES.has(code.slice(0, 2));
}

/** Whether the connection to the server failed (no answer from it at all), rather than the server answering with an error. */
export function isLinkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof AggregateError) return error.errors.some(isLinkFailure);
  const code = codeOf(error);
  if (code !== undefined && SQLSTATE.test(code)) return false;
  return (code !== undefined && NETWORK_ERRORS.has(code)) || DRIVER_MESSAGES.test(error.message);
}

/** A statement was sent and no answer came back: whether it ran, and committed, cannot be known. */
export class StatementOutcomeUnknownError extends Error {
  constructor(options: ErrorOptions) {
    super('The connection failed after the statement was sent, before its answer came back', options);
    this.name = StatementOutcomeUnknownError.name;
  }
}

function codeOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
