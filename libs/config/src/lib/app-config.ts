import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, validateSync, ValidateBy } from 'class-validator';
import { isIP } from 'node:net';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;

/** The values an integer variable may take, bounds included. */
interface IntegerRange {
  readonly min: number;
  readonly max: number;
}

const PORTS: IntegerRange = { min: 0, max: 65535 };
const OWN_PORTS: IntegerRange = { min: 1, max: 65535 };
/** Up to a billion a minute: in effect no limit (a load test, a trusted client), yet a number every store counts exactly. */
const PER_MINUTE: IntegerRange = { min: 1, max: 1_000_000_000 };
/** From 1 s, below which slow but honest clients and networks are cut off, to 10 minutes. */
const HTTP_TIMEOUT_MS: IntegerRange = { min: 1000, max: 600_000 };
/** Proxies in front of the service (load balancer, ingress, CDN…): a handful at most. */
const PROXY_HOPS: IntegerRange = { min: 1, max: 10 };
/** From a second (tests) to 30 days: a client retries within minutes or hours; the records cost a row each meanwhile. */
const IDEMPOTENCY_LIFETIME_SECONDS: IntegerRange = { min: 1, max: 30 * 24 * 3600 };

/** 100 requests a second per key on average: far above an interactive client, bounded for a runaway script. */
const DEFAULT_RATE_LIMIT_PER_MINUTE = 6000;
/** Ten a second: room for a misconfigured client or a test suite probing 401s; nothing against a 256-bit secret. */
const DEFAULT_AUTH_FAILURES_PER_MINUTE = 600;
/** Headers arrive in the first packets; 10 s leaves room for a slow network and cuts off a client that trickles them (Slowloris). */
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** A whole request: headers and a body of at most 64 KiB. */
const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;
/** Above the 60 s idle time-out of common load balancers, so that they never reuse a connection the service has just closed. */
const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** A day, as the Idempotency-Key draft and Stripe suggest: longer than any client's retries, short enough to bound the table. */
const DEFAULT_IDEMPOTENCY_KEY_LIFETIME_SECONDS = 24 * 3600;

/** Named address ranges proxy-addr knows. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const emptyAsUnset = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

function rangeText({ min, max }: IntegerRange): string {
  return `an integer from ${min} to ${max}`;
}

/** The number written in plain decimal digits; anything else (sign, fraction, exponent, text) is NaN, which no range holds. */
function decimalInteger(value: unknown): number {
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
}

function isWithin(value: unknown, { min, max }: IntegerRange): value is number {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
}

/**
 * An integer variable: decimal digits within `range`, or `fallback` when unset. Its message,
 * whatever is wrong with the value, names the range.
 */
function IntegerVariable(range: IntegerRange, fallback: number | undefined): PropertyDecorator {
  return (target, property) => {
    const message = `${String(property)} must be ${rangeText(range)}`;
    Transform(({ value }) => (value === undefined || value === '' ? fallback : decimalInteger(value)))(target, property);
    if (fallback === undefined) IsOptional()(target, property);
    ValidateBy({
      name: 'integerInRange',
      validator: { validate: (value) => isWithin(value, range), defaultMessage: () => message },
    })(target, property);
  };
}

const TRUST_PROXY_VALUES =
  `${rangeText(PROXY_HOPS)} (the number of proxies in front of the service) ` +
  'or a comma-separated list of proxy addresses, CIDR ranges, loopback, linklocal or uniquelocal';
const TRUST_PROXY_MESSAGE = `TRUST_PROXY must be ${TRUST_PROXY_VALUES}; unset, no proxy is trusted`;
const TRUST_PROXY_TRUE_MESSAGE =
  'TRUST_PROXY=true is refused: it would take the client address from the leftmost X-Forwarded-For entry, ' +
  `which any client writes itself; set it to ${TRUST_PROXY_VALUES}`;

/**
 * TRUST_PROXY as the service takes it: a hop count, a list of trusted proxies, or false for none
 * (unset); undefined when the value is none of these.
 */
function trustProxyOf(value: string | undefined): number | readonly string[] | false | undefined {
  if (value === undefined) return false;
  if (/^\d+$/.test(value)) {
    const hops = decimalInteger(value);
    return isWithin(hops, PROXY_HOPS) ? hops : undefined;
  }
  const proxies = value.split(',').map((proxy) => proxy.trim());
  return proxies.every(isTrustedProxy) ? proxies : undefined;
}

/** One entry of a proxy list as proxy-addr takes it: an address, a CIDR range or a named range. */
function isTrustedProxy(entry: string): boolean {
  return PROXY_RANGE_NAMES.includes(entry) || isIP(entry) !== 0 || isCidrRange(entry);
}

/** `address/prefix length`, the length within the address's bits (32 for IPv4, 128 for IPv6). */
function isCidrRange(entry: string): boolean {
  const [address, prefixLength, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0 || !/^\d{1,3}$/.test(prefixLength ?? '')) return false;
  return Number(prefixLength) <= (family === 4 ? 32 : 128);
}

/** The environment variables the service reads, validated once at boot. */
class Environment {
  @IntegerVariable(PORTS, 3000)
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

  @IntegerVariable(PER_MINUTE, DEFAULT_RATE_LIMIT_PER_MINUTE)
  RATE_LIMIT_PER_MINUTE!: number;

  @IntegerVariable(PER_MINUTE, DEFAULT_AUTH_FAILURES_PER_MINUTE)
  RATE_LIMIT_AUTH_FAILURES_PER_MINUTE!: number;

  @IntegerVariable(HTTP_TIMEOUT_MS, DEFAULT_HEADERS_TIMEOUT_MS)
  HTTP_HEADERS_TIMEOUT_MS!: number;

  @IntegerVariable(HTTP_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS)
  HTTP_REQUEST_TIMEOUT_MS!: number;

  @IntegerVariable(HTTP_TIMEOUT_MS, DEFAULT_KEEP_ALIVE_TIMEOUT_MS)
  HTTP_KEEP_ALIVE_TIMEOUT_MS!: number;

  @IntegerVariable(IDEMPOTENCY_LIFETIME_SECONDS, DEFAULT_IDEMPOTENCY_KEY_LIFETIME_SECONDS)
  IDEMPOTENCY_KEY_LIFETIME_SECONDS!: number;

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
  @ValidateBy({
    name: 'trustProxy',
    validator: {
      validate: (value) => trustProxyOf(String(value)) !== undefined,
      defaultMessage: (args) => (args?.value === 'true' ? TRUST_PROXY_TRUE_MESSAGE : TRUST_PROXY_MESSAGE),
    },
  })
  TRUST_PROXY?: string;

  @IntegerVariable(OWN_PORTS, undefined)
  METRICS_PORT?: number;

  @Transform(emptyAsUnset)
  @IsOptional()
  @Matches(/^[\x21-\x7e]{16,256}$/, { message: 'METRICS_TOKEN must be 16 to 256 printable ASCII characters without spaces' })
  METRICS_TOKEN?: string;

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
  /**
   * Whose X-Forwarded-For to believe for the client address: the number of proxies in front of
   * the service (the address that many hops from the right), the trusted proxies (proxy-addr
   * addresses, CIDR ranges and named ranges: the rightmost untrusted address), or false for none.
   */
  abstract readonly trustProxy: number | readonly string[] | false;
  abstract readonly httpTimeouts: HttpTimeouts;
  /** How long the answer to a create with an Idempotency-Key is kept for its retries, in seconds. */
  abstract readonly idempotencyKeyLifetimeSeconds: number;
  /** Who may scrape /metrics: on its own port (not the API's), and/or only with a bearer token. */
  abstract readonly metrics: MetricsAccess;
  abstract readonly logLevel: (typeof LOG_LEVELS)[number];
  abstract readonly production: boolean;
}

/** Where /metrics is served and what it asks of a scraper. */
export interface MetricsAccess {
  /** A port of its own, on HOST; undefined serves /metrics on the API's port. */
  readonly port: number | undefined;
  /** A bearer token the scraper must send; undefined asks for none. */
  readonly token: string | undefined;
}

/** Time limits of the HTTP server, in milliseconds. */
export interface HttpTimeouts {
  /** To receive a request's headers. */
  readonly headersMs: number;
  /** To receive a whole request, body included; at least headersMs. */
  readonly requestMs: number;
  /** How long an idle keep-alive connection is kept open. */
  readonly keepAliveMs: number;
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
  const errors = validateSync(parsed);
  // One problem per variable: the first constraint it breaks.
  const problems = errors.map((error) => Object.values(error.constraints ?? {})[0] ?? `${error.property} is invalid`);
  problems.push(...combinationProblems(parsed, new Set(errors.map((error) => error.property))));
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
    // Validated above: never undefined here.
    trustProxy: trustProxyOf(parsed.TRUST_PROXY) ?? false,
    httpTimeouts: {
      headersMs: parsed.HTTP_HEADERS_TIMEOUT_MS,
      requestMs: parsed.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveMs: parsed.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    idempotencyKeyLifetimeSeconds: parsed.IDEMPOTENCY_KEY_LIFETIME_SECONDS,
    metrics: { port: parsed.METRICS_PORT, token: parsed.METRICS_TOKEN },
    logLevel: parsed.LOG_LEVEL,
    production: parsed.NODE_ENV === 'production',
  };
}

/** Rules between variables, checked when each of them is valid on its own. */
function combinationProblems(parsed: Environment, invalid: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  if (!parsed.API_KEYS && parsed.NODE_ENV === 'production') {
    problems.push('API_KEYS must be set when NODE_ENV is production');
  }
  const timeouts = ['HTTP_HEADERS_TIMEOUT_MS', 'HTTP_REQUEST_TIMEOUT_MS'];
  if (!timeouts.some((name) => invalid.has(name)) && parsed.HTTP_REQUEST_TIMEOUT_MS < parsed.HTTP_HEADERS_TIMEOUT_MS) {
    problems.push(
      `HTTP_REQUEST_TIMEOUT_MS (${parsed.HTTP_REQUEST_TIMEOUT_MS}) must be at least HTTP_HEADERS_TIMEOUT_MS ` +
        `(${parsed.HTTP_HEADERS_TIMEOUT_MS}): receiving a request includes receiving its headers`,
    );
  }
  return problems;
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
  'HTTP_HEADERS_TIMEOUT_MS',
  'HTTP_REQUEST_TIMEOUT_MS',
  'HTTP_KEEP_ALIVE_TIMEOUT_MS',
  'IDEMPOTENCY_KEY_LIFETIME_SECONDS',
  'REDIS_URL',
  'CORS_ORIGINS',
  'TRUST_PROXY',
  'METRICS_PORT',
  'METRICS_TOKEN',
  'LOG_LEVEL',
  'NODE_ENV',
];

function trimmedCopy(env: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  return Object.fromEntries(CONFIG_VARIABLES.map((key) => [key, trimmed({ value: env[key] })]));
}

/** The database settings alone, validated as the service does, for tools that run beside it (the key CLI). */
export function loadDatabaseConfig(
  env: Readonly<Record<string, string | undefined>>,
): Pick<AppConfig, 'databaseUrl' | 'preparedStatements' | 'dataDir'> {
  const { databaseUrl, preparedStatements, dataDir } = loadConfig({
    DATABASE_URL: env['DATABASE_URL'],
    DATABASE_PREPARED_STATEMENTS: env['DATABASE_PREPARED_STATEMENTS'],
    DATA_DIR: env['DATA_DIR'],
  });
  return { databaseUrl, preparedStatements, dataDir };
}
