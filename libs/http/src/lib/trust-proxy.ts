/** TRUST_PROXY as configured: a hop count, the trusted proxies' addresses and ranges, or none. */
export type TrustedProxies = number | readonly string[] | false;

/**
 * Fastify's trustProxy for the configured proxies. A hop count is passed as a function: Fastify 5.12
 * takes a bare number for "trust no proxy" (it fails closed), where proxy-addr counts hops.
 */
export function trustProxyOption(trusted: TrustedProxies): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trusted === 'number') return (_address, hop) => hop < trusted;
  return trusted === false ? false : [...trusted];
}
