import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, Min, validateSync } from 'class-validator';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;

/** 100 requests a second per key on average: far above an interactive client, bounded for a runaway script. */
const DEFAULT_RATE_LIMIT_PER_MINUTE = 6000;
/** Ten a second: room for a misconfigured client or a test suite probing 401s; nothing against a 256-bit secret. */
const DEFAULT_AUTH_FAILURES_PER_MINUTE = 600;

/** One trusted proxy as proxy-addr takes it: an IPv4/IPv6 address or range, or a named range. */
const PROXY = String.raw`(loopback|linklocal|uniquelocal|(?=[\d.:a-fA-F]*[.:])[\d.:a-fA-F]+(\/\d{1,3})?)`;
const positiveInteger = (value: unknown) => (/^\d{1,9}$/.test(String(value)) ? Number(value) : NaN);
const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const emptyAsUnset = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/** The environment variables the service reads, validated once at boot. */
class Environment {
  @Transform(({ value }) => (value === undefined ? 3000 : /^\d+$/.test(String(value)) ? Number(value) : NaN))
  @IsInt({ message: 'PORT must be an integer from 0 to 65535' })
  @Min(0, { message: 'PORT must be an integer from 0 to 65535' })
  @Max(65535, { message: 'PORT must be an integer from 0 to 65535' })
  PORT!: number;

  @Transform(({ value }) => value ?? '0.0.0.0')
  @IsString()
  @IsNotEmpty({ message: 'HOST must not be empty' })
  HOST!: string;

  @Transform(emptyAsUnset)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  @Transform(({ value }) => value || 'true')
  @IsIn(['true', 'false'], { message: 'DATABASE_PREPARED_STATEMENTS must be true or false' })
  DATABASE_PREPARED_STATEMENTS!: 'true' | 'false';

  @Transform(({ value }) => value || '.data')
  @IsString()
  DATA_DIR!: string;

  @Transform(emptyAsUnset)
  @IsOptional()
  @IsString()
  @Matches(/^[\x21-\x2b\x2d-\x7e]+(,[\x21-\x2b\x2d-\x7e]+)*$/, {
    message: 'API_KEYS must be a comma-separated list of keys of printable ASCII characters without spaces',
  })
  API_KEYS?: string;

  @Transform(({ value }) => (value === undefined ? DEFAULT_RATE_LIMIT_PER_MINUTE : positiveInteger(value)))
  @IsInt({ message: 'RATE_LIMIT_PER_MINUTE must be a positive integer' })
  @Min(1, { message: 'RATE_LIMIT_PER_MINUTE must be a positive integer' })
  RATE_LIMIT_PER_MINUTE!: number;

  @Transform(({ value }) => (value === undefined ? DEFAULT_AUTH_FAILURES_PER_MINUTE : positiveInteger(value)))
  @IsInt({ message: 'RATE_LIMIT_AUTH_FAILURES_PER_MINUTE must be a positive integer' })
  @Min(1, { message: 'RATE_LIMIT_AUTH_FAILURES_PER_MINUTE must be a positive integer' })
  RATE_LIMIT_AUTH_FAILURES_PER_MINUTE!: number;

  @Transform(emptyAsUnset)
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @Transform(emptyAsUnset)
  @IsOptional()
  @Matches(/^(\*|https?:\/\/[^\s,/]+(,https?:\/\/[^\s,/]+)*)$/, {
    message: 'CORS_ORIGINS must be * or a comma-separated list of origins such as https://app.example.com',
  })
  CORS_ORIGINS?: string;

  @Transform(emptyAsUnset)
  @IsOptional()
  @Matches(new RegExp(`^(true|${PROXY}(,${PROXY})*)$`), {
    message: 'TRUST_PROXY must be true or a comma-separated list of proxy addresses, CIDR ranges, loopback, linklocal or uniquelocal',
  })
  TRUST_PROXY?: string;

  @Transform(({ value }) => value || 'info')
  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL!: (typeof LOG_LEVELS)[number];

  @Transform(({ value }) => value || 'development')
  @IsIn(NODE_ENVS, { message: `NODE_ENV must be one of ${NODE_ENVS.join(', ')}` })
  NODE_ENV!: (typeof NODE_ENVS)[number];
}

/** The service's configuration: read from the environment once, then passed around typed. */
export abstract class AppConfig {
  abstract readonly port: number;
  abstract readonly host: string;
  /** PostgreSQL URL; undefined means the embedded database under `dataDir`. */
  abstract readonly databaseUrl: string | undefined;
  /** Whether hot queries use named prepared statements (off behind a pooler that cannot keep them). */
  abstract readonly preparedStatements: boolean;
  abstract readonly dataDir: string;
  abstract readonly apiKeys: readonly string[];
  /** Requests per minute for each API key. */
  abstract readonly rateLimitPerMinute: number;
  /** Failed authentications per minute for each client address. */
  abstract readonly authFailuresPerMinute: number;
  /** Redis for rate limits shared by every instance; undefined counts in each instance's memory. */
  abstract readonly redisUrl: string | undefined;
  /** Origins allowed to call the API from a browser; empty means CORS is off. */
  abstract readonly corsOrigins: readonly string[];
  /** Fastify's trustProxy: which proxies' X-Forwarded-For to believe for the client address. */
  abstract readonly trustProxy: boolean | string[];
  abstract readonly logLevel: (typeof LOG_LEVELS)[number];
  abstract readonly production: boolean;
}

export class InvalidConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'InvalidConfigError';
  }
}

/** Validates the environment and returns the configuration; throws InvalidConfigError listing every problem. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): AppConfig {
  const parsed = plainToInstance(Environment, trimmedCopy(env));
  // One problem per variable: the first constraint it breaks.
  const problems = validateSync(parsed).map((error) => Object.values(error.constraints ?? {})[0] ?? `${error.property} is invalid`);
  if (!parsed.API_KEYS && parsed.NODE_ENV === 'production') {
    problems.push('API_KEYS must be set when NODE_ENV is production');
  }
  if (problems.length > 0) throw new InvalidConfigError(problems);
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    databaseUrl: parsed.DATABASE_URL,
    preparedStatements: parsed.DATABASE_PREPARED_STATEMENTS === 'true',
    dataDir: parsed.DATA_DIR,
    apiKeys: parsed.API_KEYS ? parsed.API_KEYS.split(',') : [],
    rateLimitPerMinute: parsed.RATE_LIMIT_PER_MINUTE,
    authFailuresPerMinute: parsed.RATE_LIMIT_AUTH_FAILURES_PER_MINUTE,
    redisUrl: parsed.REDIS_URL,
    corsOrigins: parsed.CORS_ORIGINS ? parsed.CORS_ORIGINS.split(',') : [],
    trustProxy: trustProxyOf(parsed.TRUST_PROXY),
    logLevel: parsed.LOG_LEVEL,
    production: parsed.NODE_ENV === 'production',
  };
}

/** Every environment variable the service reads (its `--help` lists them). */
export const CONFIG_VARIABLES: readonly (keyof Environment)[] = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'DATABASE_PREPARED_STATEMENTS',
  'DATA_DIR',
  'API_KEYS',
  'RATE_LIMIT_PER_MINUTE',
  'RATE_LIMIT_AUTH_FAILURES_PER_MINUTE',
  'REDIS_URL',
  'CORS_ORIGINS',
  'TRUST_PROXY',
  'LOG_LEVEL',
  'NODE_ENV',
];

function trimmedCopy(env: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  return Object.fromEntries(CONFIG_VARIABLES.map((key) => [key, trimmed({ value: env[key] })]));
}

function trustProxyOf(value: string | undefined): boolean | string[] {
  if (!value) return false;
  return value === 'true' ? true : value.split(',');
}

/** The database settings alone, validated as the service does, for tools that run beside it (the key CLI). */
export function loadDatabaseConfig(env: Readonly<Record<string, string | undefined>>): Pick<AppConfig, 'databaseUrl' | 'preparedStatements' | 'dataDir'> {
  const { databaseUrl, preparedStatements, dataDir } = loadConfig({
    DATABASE_URL: env['DATABASE_URL'],
    DATABASE_PREPARED_STATEMENTS: env['DATABASE_PREPARED_STATEMENTS'],
    DATA_DIR: env['DATA_DIR'],
  });
  return { databaseUrl, preparedStatements, dataDir };
}
