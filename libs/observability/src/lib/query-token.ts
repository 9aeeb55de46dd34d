/** RFC 6750's query token, redacted from logs and traces; this module imports nothing so the tracing SDK can load it first. */
export const TOKEN_QUERY_PARAMETER = 'access_token';
