import { describeOn, target } from './support/api';
import { tempDir } from './support/leftovers';
import { databaseEnv, outputOnceItShows, runServerToExit, startServer } from './support/server';

/** What a client behind a load balancer sends: a forged entry of its own, then the address the balancer saw. */
const FORWARDED_FOR = '198.51.100.66, 203.0.113.7';

/** The client address the service logged for a failed authentication. */
async function loggedClientAddress(trustProxy: string, forwardedFor = FORWARDED_FOR): Promise<string | undefined> {
  const server = await startServer({ ...databaseEnv(target), TRUST_PROXY: trustProxy });
  try {
    const headers = { authorization: 'Bearer wrong-key', 'x-forwarded-for': forwardedFor };
    expect((await fetch(`${server.url}/v1/pets`, { headers })).status).toBe(401);
    const logged = /Authentication failed[\s\S]*?clientAddress: "([^"]+)"/;
    return logged.exec(await outputOnceItShows(server, logged))?.[1];
  } finally {
    await server.stop();
  }
}

describeOn('pglite')('TRUST_PROXY: the client address behind proxies', () => {
  // The test client is the "load balancer": it connects from 127.0.0.1.
  it.each([
    ['a hop count', '1'],
    ['a list of proxies', '127.0.0.1/8'],
  ])('takes the address the nearest proxy saw, never the forged leftmost one, with %s', async (_case, trustProxy) => {
    expect(await loggedClientAddress(trustProxy)).toBe('203.0.113.7');
  });

  it('counts a trusted hop that forwarded something other than an IP address as the connection itself', async () => {
    expect(await loggedClientAddress('1', `198.51.100.66, ${'x'.repeat(12_000)}`)).toBe('127.0.0.1');
  });

  it('counts an IPv6 client by its /64', async () => {
    expect(await loggedClientAddress('1', '2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
  });

  it('refuses true, which would believe the leftmost (forged) entry', async () => {
    const dataDir = tempDir('refused');
    const { code, output } = await runServerToExit({ DATA_DIR: dataDir, API_KEYS: 'k', TRUST_PROXY: 'true' });
    expect(code).toBe(1);
    expect(output).toContain('TRUST_PROXY=true is refused');
  });
});
