import { type InProcessApp, startInProcessApp } from '../testing/in-process-app';

// TRUST_PROXY: the client address the service takes behind a proxy (the rate limits and the logs
// use it). The test is the load balancer, one hop: it connects from 127.0.0.1 and forwards what
// the client sent, a forged entry of the client's own first. Each form of the option on Fastify:
// libs/http's trust-proxy.spec.ts; which values are taken or refused: libs/config's app-config.spec.ts.

const FORWARDED_FOR = '198.51.100.66, 203.0.113.7';

describe('TRUST_PROXY=1', () => {
  let petstore: InProcessApp;
  beforeAll(async () => {
    petstore = await startInProcessApp({ TRUST_PROXY: '1' }, { logs: true });
  });
  afterAll(() => petstore?.close());

  /** The client address the service logged for a failed authentication forwarded with this X-Forwarded-For. */
  async function loggedClientAddress(forwardedFor: string): Promise<unknown> {
    const response = await petstore.fastify.inject({
      method: 'GET',
      url: '/v1/pets',
      remoteAddress: '127.0.0.1',
      headers: { authorization: 'Bearer wrong-key-0123456789', 'x-forwarded-for': forwardedFor },
    });
    expect(response.statusCode).toBe(401);
    return petstore
      .logLines()
      .filter((line) => line.msg === 'Authentication failed')
      .at(-1)?.clientAddress;
  }

  it('takes the address the proxy saw, never the forged leftmost one', async () => {
    expect(await loggedClientAddress(FORWARDED_FOR)).toBe('203.0.113.7');
  });

  it('counts a trusted hop that forwarded something other than an IP address as the connection itself', async () => {
    expect(await loggedClientAddress(`198.51.100.66, ${'x'.repeat(12_000)}`)).toBe('127.0.0.1');
  });

  it('counts an IPv6 client by its /64', async () => {
    expect(await loggedClientAddress('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
  });
});
