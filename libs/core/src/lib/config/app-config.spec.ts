import { InvalidConfigError, loadConfig, loadDatabaseConfig } from './app-config';

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
        REDIS_URL: 'redis://cache:6379',
        CORS_ORIGINS: 'https://app.example.com,http://localhost:5173',
        TRUST_PROXY: '10.0.0.0/8,127.0.0.1,loopback',
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

  it.each(['0', '-5', '1.5', 'many', '10000000000'])('refuses RATE_LIMIT_PER_MINUTE %p', (limit) => {
    expect(problemsOf({ RATE_LIMIT_PER_MINUTE: limit })).toEqual(['RATE_LIMIT_PER_MINUTE must be a positive integer']);
  });

  it('refuses a RATE_LIMIT_AUTH_FAILURES_PER_MINUTE that is not a positive integer', () => {
    expect(problemsOf({ RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '0' })).toEqual(['RATE_LIMIT_AUTH_FAILURES_PER_MINUTE must be a positive integer']);
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

  it('takes TRUST_PROXY true for any proxy', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  });

  it.each(['yes', '2', 'proxy.internal', '10.0.0.0/8,'])('refuses TRUST_PROXY %p', (value) => {
    expect(problemsOf({ TRUST_PROXY: value })).toEqual([
      'TRUST_PROXY must be true or a comma-separated list of proxy addresses, CIDR ranges, loopback, linklocal or uniquelocal',
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
