/** TRUST_PROXY as configured: a hop count, the trusted proxies' addresses and ranges, or none. */
export type TrustedProxies = number | readonly string[] | false;

/** Fastify's trustProxy. A hop count goes as a function: Fastify 5.12 reads a bare number as "trust no proxy". */
export function trustProxyOption(trusted: TrustedProxies): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trusted === 'number') return (_address, hop) => hop < trusted;
  return trusted === false ? false : [...trusted];
}
