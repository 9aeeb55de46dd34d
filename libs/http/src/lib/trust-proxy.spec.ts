import Fastify from 'fastify';
import { type TrustedProxies, trustProxyOption } from './trust-proxy';

// The option on Fastify itself: which address request.ip is, behind a load balancer at 127.0.0.1
// that forwards a forged entry of the client's own first. What the service does with the address
// (the logs, the limits, an IPv6 /64): apps/api/src/trust-proxy.spec.ts.

async function clientAddress(trusted: TrustedProxies, forwardedFor: string): Promise<string> {
  const fastify = Fastify({ trustProxy: trustProxyOption(trusted) });
  fastify.get('/', (request) => ({ ip: request.ip }));
  try {
    const response = await fastify.inject({ url: '/', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': forwardedFor } });
    return response.json<{ ip: string }>().ip;
  } finally {
    await fastify.close();
  }
}

describe('trustProxyOption', () => {
  it.each<[string, TrustedProxies, string]>([
    ['one hop', 1, '203.0.113.7'],
    ['two hops', 2, '198.51.100.66'],
    ['a list of proxies', ['127.0.0.1/8'], '203.0.113.7'],
    ['a list of two proxies', ['127.0.0.1/8', '203.0.113.0/24'], '198.51.100.66'],
    ['no proxy', false, '127.0.0.1'],
  ])('with %s, takes the address the nearest untrusted hop saw', async (_case, trusted, expected) => {
    expect(await clientAddress(trusted, '198.51.100.66, 203.0.113.7')).toBe(expected);
  });
});
