import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES, configVariablesHelp, InvalidConfigError, loadConfig, loadDatabaseConfig } from './app-config';

function problemsOf(env: Record<string, string | undefined>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof InvalidConfigError) return error.problems;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

describe('loadConfig', () => {
  it('uses the defaults for an empty environment', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      preparedStatements: true,
      dataDir: '.data',
      apiKeys: [],
      rateLimitPerMinute: 6000,
      authFailuresPerMinute: 600,
      redisUrl: undefined,
      corsOrigins: [],
      trustProxy: false,
      httpTimeouts: { headersMs: 10000, requestMs: 15000, keepAliveMs: 65000 },
      shutdownDrainMs: 5000,
      idempotencyKeyLifetimeSeconds: 86400,
      metrics: { port: undefined, token: undefined, onApiPort: true },
      gitCommit: undefined,
      logLevel: 'info',
      production: false,
    });
  });

  it('reads every variable', () => {
    expect(
      loadConfig({
        PORT: '8080',
        HOST: '127.0.0.1',
        DATABASE_URL: 'postgres://user:pw@db:5432/pets',
        DATABASE_PREPARED_STATEMENTS: 'false',
        DATA_DIR: '/var/lib/petstore',
        API_KEYS: 'k1',
        RATE_LIMIT_PER_MINUTE: '100',
        RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '10',
        HTTP_HEADERS_TIMEOUT_MS: '5000',
        HTTP_REQUEST_TIMEOUT_MS: '30000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '75000',
        SHUTDOWN_DRAIN_MS: '2000',
        IDEMPOTENCY_KEY_LIFETIME_SECONDS: '3600',
        REDIS_URL: 'redis://cache:6379',
        CORS_ORIGINS: 'https://app.example.com,http://localhost:5173',
        TRUST_PROXY: '10.0.0.0/8,127.0.0.1,loopback',
        METRICS_PORT: '9464',
        METRICS_TOKEN: 'scrape-token-0123456789',
        GIT_COMMIT: '3d7a365f0c',
        LOG_LEVEL: 'debug',
        NODE_ENV: 'production',
      }),
    ).toEqual({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://user:pw@db:5432/pets',
      preparedStatements: false,
      dataDir: '/var/lib/petstore',
      apiKeys: ['k1'],
      rateLimitPerMinute: 100,
      authFailuresPerMinute: 10,
      redisUrl: 'redis://cache:6379',
      corsOrigins: ['https://app.example.com', 'http://localhost:5173'],
      trustProxy: ['10.0.0.0/8', '127.0.0.1', 'loopback'],
      httpTimeouts: { headersMs: 5000, requestMs: 30000, keepAliveMs: 75000 },
      shutdownDrainMs: 2000,
      idempotencyKeyLifetimeSeconds: 3600,
      metrics: { port: 9464, token: 'scrape-token-0123456789', onApiPort: false },
      gitCommit: '3d7a365f0c',
      logLevel: 'debug',
      production: true,
    });
  });

  it('refuses a DATABASE_PREPARED_STATEMENTS that is not true or false', () => {
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'yes' })).toThrow('DATABASE_PREPARED_STATEMENTS must be true or false');
  });

  it('splits API_KEYS on commas', () => {
    expect(loadConfig({ API_KEYS: 'alpha,beta,gamma' }).apiKeys).toEqual(['alpha', 'beta', 'gamma']);
  });

  it.each(['0', '65535'])('accepts PORT %s', (port) => {
    expect(loadConfig({ PORT: port }).port).toBe(Number(port));
  });

  it.each(['abc', '70000', '-1', '1.5', '65536'])('refuses PORT %p', (port) => {
    expect(problemsOf({ PORT: port })).toEqual(['PORT must be an integer from 0 to 65535']);
  });

  it('throws an InvalidConfigError whose message names the variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(InvalidConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
  });

  it.each(['postgres://db/pets', 'postgresql://db/pets'])('accepts DATABASE_URL %s', (url) => {
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it('refuses a DATABASE_URL that is not PostgreSQL', () => {
    expect(problemsOf({ DATABASE_URL: 'mysql://x' })).toEqual(['DATABASE_URL must be a postgres:// or postgresql:// URL']);
  });

  it('takes an empty DATABASE_URL for unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it('requires API_KEYS in production', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual(['API_KEYS must be set when NODE_ENV is production']);
  });

  it.each(['has space', 'tab\tkey', 'caf\u00e9', 'a,,b', ',', 'a,'])('refuses API_KEYS %p', (keys) => {
    expect(problemsOf({ API_KEYS: keys })).toEqual([
      'API_KEYS must be a comma-separated list of keys of printable ASCII characters without spaces',
    ]);
  });

  it('refuses an unknown LOG_LEVEL and NODE_ENV', () => {
    expect(problemsOf({ LOG_LEVEL: 'verbose', NODE_ENV: 'staging' })).toEqual([
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      'NODE_ENV must be one of development, production, test',
    ]);
  });

  it('lists every problem at once', () => {
    const problems = problemsOf({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', NODE_ENV: 'production' });

    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/PORT/);
    expect(problems.join('\n')).toMatch(/DATABASE_URL/);
    expect(problems.join('\n')).toMatch(/LOG_LEVEL/);
    expect(problems.join('\n')).toMatch(/API_KEYS/);
  });

  it('trims the values it reads', () => {
    const config = loadConfig({ PORT: ' 8080 ', HOST: ' localhost ', API_KEYS: ' k1,k2 ' });
    expect(config.port).toBe(8080);
    expect(config.host).toBe('localhost');
    expect(config.apiKeys).toEqual(['k1', 'k2']);
  });

  describe.each([
    ['PORT', 0, 65535],
    ['RATE_LIMIT_PER_MINUTE', 1, 1000000000],
    ['RATE_LIMIT_AUTH_FAILURES_PER_MINUTE', 1, 1000000000],
    ['HTTP_HEADERS_TIMEOUT_MS', 1000, 600000],
    ['HTTP_REQUEST_TIMEOUT_MS', 1000, 600000],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', 1000, 600000],
    ['SHUTDOWN_DRAIN_MS', 0, 60000],
    ['METRICS_PORT', 1, 65535],
    ['IDEMPOTENCY_KEY_LIFETIME_SECONDS', 1, 2592000],
  ])('the integer variable %s', (variable, min, max) => {
    // The request timeout may not be below the headers timeout: keep the other one out of the way.
    const base: Record<string, string> =
      {
        HTTP_HEADERS_TIMEOUT_MS: { HTTP_REQUEST_TIMEOUT_MS: '600000' },
        HTTP_REQUEST_TIMEOUT_MS: { HTTP_HEADERS_TIMEOUT_MS: '1000' },
      }[variable] ?? {};
    const configured = (value: string) => {
      const config = loadConfig({ ...base, [variable]: value });
      const { port, rateLimitPerMinute, authFailuresPerMinute, metrics, idempotencyKeyLifetimeSeconds, shutdownDrainMs } = config;
      const { headersMs, requestMs, keepAliveMs } = config.httpTimeouts;
      return [
        port,
        rateLimitPerMinute,
        authFailuresPerMinute,
        metrics.port,
        headersMs,
        requestMs,
        keepAliveMs,
        idempotencyKeyLifetimeSeconds,
        shutdownDrainMs,
      ];
    };

    it.each([String(min), String(max), ` ${max} `])('takes %p', (value) => {
      expect(configured(value)).toContain(Number(value));
    });

    const refused = [String(min - 1), String(max + 1), '-1', '1.5', '1e3', '+5', '0x10', 'abc', '99999999999999999999'];
    it.each(refused)('refuses %p, naming the range', (value) => {
      expect(problemsOf({ ...base, [variable]: value })).toEqual([`${variable} must be an integer from ${min} to ${max}`]);
    });
  });

  it.each(['', '  '])('takes HOST and DATA_DIR %p as unset', (value) => {
    const { host, dataDir } = loadConfig({ HOST: value, DATA_DIR: value });
    expect({ host, dataDir }).toEqual({ host: '0.0.0.0', dataDir: '.data' });
  });

  it('takes an empty integer variable as unset, as it does every other variable', () => {
    const config = loadConfig({ PORT: '', RATE_LIMIT_PER_MINUTE: ' ', METRICS_PORT: '' });
    expect([config.port, config.rateLimitPerMinute, config.metrics.port]).toEqual([3000, 6000, undefined]);
  });

  it.each([
    ['outside production', {}, true],
    ['outside production, with a token', { METRICS_TOKEN: 'scrape-token-0123456789' }, true],
    ['with a port of its own', { METRICS_PORT: '9464' }, false],
    ['in production, unless the operator says who may scrape it', { NODE_ENV: 'production' }, false],
    ['in production with a token', { NODE_ENV: 'production', METRICS_TOKEN: 'scrape-token-0123456789' }, true],
    ['in production with a port of its own', { NODE_ENV: 'production', METRICS_PORT: '9464' }, false],
  ])('serves /metrics on the API port %s: %p', (_case, env: Record<string, string>, onApiPort) => {
    expect(loadConfig({ API_KEYS: 'k', ...env }).metrics.onApiPort).toBe(onApiPort);
  });

  it.each(['HEAD', '3d7a36', 'ABCDEF0', 'x'.repeat(8), 'a'.repeat(65)])('refuses the GIT_COMMIT %p', (commit) => {
    expect(problemsOf({ GIT_COMMIT: commit })).toEqual(['GIT_COMMIT must be a commit hash of 7 to 64 lower-case hexadecimal digits']);
  });

  it.each(['short', 'has a space in it 0123', 'x'.repeat(257)])('refuses the METRICS_TOKEN %p', (token) => {
    expect(problemsOf({ METRICS_TOKEN: token })).toEqual(['METRICS_TOKEN must be 16 to 256 printable ASCII characters without spaces']);
  });

  it('refuses RATE_LIMIT_PER_MINUTE 1000000001 saying what the range is, not that it is not a positive integer', () => {
    expect(problemsOf({ RATE_LIMIT_PER_MINUTE: '1000000001' })).toEqual(['RATE_LIMIT_PER_MINUTE must be an integer from 1 to 1000000000']);
  });

  it('takes a request timeout equal to the headers timeout', () => {
    expect(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '20000' }).httpTimeouts).toEqual({
      headersMs: 20000,
      requestMs: 20000,
      keepAliveMs: 65000,
    });
  });

  it.each([
    [{ HTTP_REQUEST_TIMEOUT_MS: '9999' }, 9999, 10000],
    [{ HTTP_HEADERS_TIMEOUT_MS: '20000' }, 15000, 20000],
    [{ HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '30000' }, 30000, 60000],
  ])('refuses a request timeout below the headers timeout (%p)', (env, requestMs, headersMs) => {
    expect(problemsOf(env)).toEqual([
      `HTTP_REQUEST_TIMEOUT_MS (${requestMs}) must be at least HTTP_HEADERS_TIMEOUT_MS (${headersMs}): ` +
        'receiving a request includes receiving its headers',
    ]);
  });

  it('compares the timeouts only when both are valid', () => {
    expect(problemsOf({ HTTP_HEADERS_TIMEOUT_MS: '700000', HTTP_REQUEST_TIMEOUT_MS: '5000' })).toEqual([
      'HTTP_HEADERS_TIMEOUT_MS must be an integer from 1000 to 600000',
    ]);
  });

  it.each(['http://cache:6379', 'cache:6379'])('refuses REDIS_URL %p', (url) => {
    expect(problemsOf({ REDIS_URL: url })).toEqual(['REDIS_URL must be a redis:// or rediss:// URL']);
  });

  it('takes CORS_ORIGINS * for any origin', () => {
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
  });

  it.each(['app.example.com', 'https://app.example.com/', 'https://a.example.com, https://b.example.com', '*,https://a.example.com'])(
    'refuses CORS_ORIGINS %p',
    (origins) => {
      expect(problemsOf({ CORS_ORIGINS: origins })).toEqual([
        'CORS_ORIGINS must be * or a comma-separated list of origins such as https://app.example.com',
      ]);
    },
  );

  it.each(['', '  '])('takes TRUST_PROXY %p for no proxy trusted', (value) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(false);
  });

  it.each([
    ['1', 1],
    ['2', 2],
    ['10', 10],
  ])('takes TRUST_PROXY %p as a hop count', (value, hops) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(hops);
  });

  it.each([
    ['127.0.0.1', ['127.0.0.1']],
    ['::1', ['::1']],
    ['10.0.0.0/8', ['10.0.0.0/8']],
    ['0.0.0.0/0', ['0.0.0.0/0']],
    ['192.168.1.7/32', ['192.168.1.7/32']],
    ['fd00::/8', ['fd00::/8']],
    ['2001:db8::/128', ['2001:db8::/128']],
    ['::ffff:10.0.0.1', ['::ffff:10.0.0.1']],
    ['loopback,linklocal,uniquelocal', ['loopback', 'linklocal', 'uniquelocal']],
    ['10.0.0.0/8, 172.16.0.0/12 ,loopback', ['10.0.0.0/8', '172.16.0.0/12', 'loopback']],
  ])('takes TRUST_PROXY %p as a list of trusted proxies', (value, proxies) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(proxies);
  });

  it('refuses TRUST_PROXY true, saying why and what to set instead', () => {
    expect(problemsOf({ TRUST_PROXY: 'true' })).toEqual([
      'TRUST_PROXY=true is refused: it would take the client address from the leftmost X-Forwarded-For entry, which any client ' +
        'writes itself; set it to an integer from 1 to 10 (the number of proxies in front of the service) or a comma-separated list of ' +
        'proxy addresses, CIDR ranges, loopback, linklocal or uniquelocal',
    ]);
  });

  it.each([
    'false',
    'yes',
    '0',
    '11',
    '-1',
    '1.5',
    'TRUE',
    'Loopback',
    'proxy.internal',
    '10.0.0.0/8,',
    ',10.0.0.1',
    '10.0.0.0/33',
    '10.0.0.0/-1',
    '10.0.0.0/8/1',
    '10.0.0.0/',
    '10.0.0.0/255.0.0.0',
    'fd00::/129',
    '256.0.0.1',
    '10.0.0',
    '1.2.3.4.5',
    '::g',
    'loopback,true',
  ])('refuses TRUST_PROXY %p, naming the hop count range and the list', (value) => {
    expect(problemsOf({ TRUST_PROXY: value })).toEqual([
      'TRUST_PROXY must be an integer from 1 to 10 (the number of proxies in front of the service) or a comma-separated list of ' +
        'proxy addresses, CIDR ranges, loopback, linklocal or uniquelocal; unset, no proxy is trusted',
    ]);
  });
});

describe('loadDatabaseConfig', () => {
  it('reads the database settings alone, whatever else the environment holds', () => {
    expect(loadDatabaseConfig({ DATABASE_URL: 'postgres://db/pets', DATA_DIR: '/data', NODE_ENV: 'production', PORT: 'abc' })).toEqual({
      databaseUrl: 'postgres://db/pets',
      preparedStatements: true,
      dataDir: '/data',
    });
  });

  it('refuses a bad DATABASE_URL as the service does', () => {
    expect(() => loadDatabaseConfig({ DATABASE_URL: 'mysql://x' })).toThrow('DATABASE_URL must be a postgres:// or postgresql:// URL');
  });
});

describe('the variables', () => {
  const help = configVariablesHelp();

  it('reads only the variables it lists', () => {
    const everyVariable = Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, '\u0000 not a value']));
    const problems = problemsOf({ ...everyVariable, HOST: 'h', DATA_DIR: 'd' });
    expect(problems.map((problem) => problem.split(/[ =]/)[0])).toEqual(
      CONFIG_VARIABLES.filter((name) => !['HOST', 'DATA_DIR'].includes(name)),
    );
    expect(loadConfig({ UNKNOWN_VARIABLE: 'x', PORT_: 'abc' })).toEqual(loadConfig({}));
  });

  it('has a --help line for each, with its default', () => {
    expect(help.map((line) => line.trim().split(/\s+/).slice(0, 2))).toEqual([
      ['PORT', '3000'],
      ['HOST', '0.0.0.0'],
      ['DATABASE_URL', '(unset)'],
      ['DATABASE_PREPARED_STATEMENTS', 'true'],
      ['DATA_DIR', '.data'],
      ['API_KEYS', '(unset)'],
      ['RATE_LIMIT_PER_MINUTE', '6000'],
      ['RATE_LIMIT_AUTH_FAILURES_PER_MINUTE', '600'],
      ['HTTP_HEADERS_TIMEOUT_MS', '10000'],
      ['HTTP_REQUEST_TIMEOUT_MS', '15000'],
      ['HTTP_KEEP_ALIVE_TIMEOUT_MS', '65000'],
      ['SHUTDOWN_DRAIN_MS', '5000'],
      ['IDEMPOTENCY_KEY_LIFETIME_SECONDS', '86400'],
      ['REDIS_URL', '(unset)'],
      ['CORS_ORIGINS', '(unset)'],
      ['TRUST_PROXY', '(unset)'],
      ['METRICS_PORT', '(unset)'],
      ['METRICS_TOKEN', '(unset)'],
      ['GIT_COMMIT', '(unset)'],
      ['LOG_LEVEL', 'info'],
      ['NODE_ENV', 'development'],
    ]);
  });

  it.each([
    ['PORT', 'abc'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_PREPARED_STATEMENTS', 'yes'],
    ['LOG_LEVEL', 'loud'],
    ['METRICS_TOKEN', 'short'],
    ['GIT_COMMIT', 'HEAD'],
  ])('says in the --help line of %s what it accepts, in the words of its refusal', (name, value) => {
    const [refusal] = problemsOf({ [name]: value });
    const line = help.find((line) => line.startsWith(`  ${name} `));
    expect(refusal).toMatch(new RegExp(`^${name} must be `));
    expect(line?.endsWith(`; ${refusal.slice(name.length + 1)}`)).toBe(true);
  });

  it("are the rows of README.md's configuration table, with the same defaults", () => {
    const readme = readFileSync(join(__dirname, '../../../../README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'));
    const rows = [...table.matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\| `?([^|`]+?)`? +\|/gm)].map(([, name, fallback]) => [name, fallback]);
    expect(rows).toEqual(help.map((line) => line.trim().split(/\s+/).slice(0, 2)));
  });
});
