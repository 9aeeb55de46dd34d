/** Realm named in every WWW-Authenticate challenge. */
export const AUTH_REALM = 'petstore';
