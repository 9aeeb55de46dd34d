/**
 * The query parameter a client may wrongly put its bearer token in (RFC 6750's `access_token`):
 * its value is kept out of the access log and the traces. A module of its own, importing nothing,
 * so that the tracing SDK can read it before anything it instruments is loaded.
 */
export const TOKEN_QUERY_PARAMETER = 'access_token';
