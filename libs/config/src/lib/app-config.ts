// Each variable is defined once in VARIABLES (zod: types inferred, no decorators); its list, --help and refusals derive from it.
import { isIP } from 'node:net';
import { z } from 'zod';

interface IntegerRange {
  readonly min: number;
  readonly max: number;
}

/** What a variable accepts: the zod schema of its trimmed, non-empty text, and the same in words. */
interface Rule<Value> {
  readonly schema: z.ZodType<Value, string>;
  /** What follows "must be" in a refusal and closes the variable's line in --help; undefined: any text. */
  readonly accepts: string | undefined;
}

/** A zod error message that names the variable, whatever schema of it is refused. */
function refusal(words: (name: string) => string): (issue: { readonly path?: readonly PropertyKey[] }) => string {
  return (issue) => words(String(issue.path?.[0] ?? 'the value'));
}

function mustBe(accepts: string) {
  return refusal((name) => `${name} must be ${accepts}`);
}

const anyText: Rule<string> = { schema: z.string(), accepts: undefined };

function matching(pattern: RegExp, accepts: string): Rule<string> {
  return { schema: z.string().regex(pattern, { error: mustBe(accepts) }), accepts };
}

function integerWithin({ min, max }: IntegerRange): string {
  return `an integer from ${min} to ${max}`;
}

/** Decimal digits alone (no sign, fraction, exponent or spaces) within `range`; one message, whatever is wrong. */
function integer(range: IntegerRange): Rule<number> {
  const { min, max } = range;
  const accepts = integerWithin(range);
  const error = mustBe(accepts);
  const schema = z.string().regex(/^\d+$/, { error }).transform(Number).pipe(z.int({ error }).min(min, { error }).max(max, { error }));
  return { schema, accepts };
}

function oneOf<const Values extends readonly [string, ...string[]]>(values: Values): Rule<Values[number]> {
  const accepts = values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`;
  return { schema: z.enum(values, { error: mustBe(accepts) }), accepts };
}

const trueOrFalse: Rule<boolean> = {
  schema: z.stringbool({ truthy: ['true'], falsy: ['false'], case: 'sensitive', error: mustBe('true or false') }),
  accepts: 'true or false',
};

/** Comma-separated entries each matching `entry` (no spaces around the commas, none empty), as a list. */
function listOf(entry: string, accepts: string): Rule<readonly string[]> {
  const { schema } = matching(new RegExp(`^${entry}(,${entry})*$`), accepts);
  return { schema: schema.transform((value) => value.split(',')), accepts };
}

/** Proxies in front of the service (load balancer, ingress, CDN…): a handful at most. */
const PROXY_HOPS: IntegerRange = { min: 1, max: 10 };
/** Named address ranges proxy-addr knows. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const TRUST_PROXY_VALUES =
  `${integerWithin(PROXY_HOPS)} (the number of proxies in front of the service) ` +
  'or a comma-separated list of proxy addresses, CIDR ranges, loopback, linklocal or uniquelocal';

/** A hop count or a list of trusted proxies; `true` (the leftmost X-Forwarded-For entry, client-written) gets its own refusal. */
const trustedProxies: Rule<number | readonly string[]> = {
  schema: z
    .string()
    .refine((value) => value !== 'true', {
      abort: true,
      error: refusal(
        (name) =>
          `${name}=true is refused: it would take the client address from the leftmost X-Forwarded-For entry, ` +
          `which any client writes itself; set it to ${TRUST_PROXY_VALUES}`,
      ),
    })
    .transform(trustProxyOf)
    .pipe(
      z.custom<number | readonly string[]>((trusted) => trusted !== undefined, {
        error: mustBe(`${TRUST_PROXY_VALUES}; unset, no proxy is trusted`),
      }),
    ),
  accepts: TRUST_PROXY_VALUES,
};

function trustProxyOf(value: string): number | readonly string[] | undefined {
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops >= PROXY_HOPS.min && hops <= PROXY_HOPS.max ? hops : undefined;
  }
  const proxies = value.split(',').map((proxy) => proxy.trim());
  return proxies.every(isTrustedProxy) ? proxies : undefined;
}

/** One entry of a proxy list as proxy-addr takes it: an address, a CIDR range or a named range. */
function isTrustedProxy(entry: string): boolean {
  return PROXY_RANGE_NAMES.includes(entry) || isIP(entry) !== 0 || isCidrRange(entry);
}

function isCidrRange(entry: string): boolean {
  const [address, prefixLength, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0 || !/^\d{1,3}$/.test(prefixLength ?? '')) return false;
  return Number(prefixLength) <= (family === 4 ? 32 : 128);
}

interface Variable<Schema extends z.ZodType> {
  readonly schema: Schema;
  readonly accepts: string | undefined;
  /** Undefined: none, the variable is then undefined when unset. */
  readonly default: string | undefined;
  readonly description: string;
}

function variable<Value>(rule: Rule<Value>, fallback: string, description: string): Variable<z.ZodPrefault<z.ZodType<Value, string>>>;
function variable<Value>(rule: Rule<Value>, fallback: undefined, description: string): Variable<z.ZodOptional<z.ZodType<Value, string>>>;
function variable<Value>(rule: Rule<Value>, fallback: string | undefined, description: string): Variable<z.ZodType> {
  const schema = fallback === undefined ? rule.schema.optional() : rule.schema.prefault(fallback);
  return { schema, accepts: rule.accepts, default: fallback, description };
}

const PORTS: IntegerRange = { min: 0, max: 65535 };
/** Up to a billion a minute: in effect no limit (a load test, a trusted client), yet a number every store counts exactly. */
const PER_MINUTE: IntegerRange = { min: 1, max: 1_000_000_000 };
/** From 1 s, below which slow but honest clients and networks are cut off, to 10 minutes. */
const HTTP_TIMEOUT_MS: IntegerRange = { min: 1000, max: 600_000 };
const PRINTABLE_WITHOUT_COMMA = '[\\x21-\\x2b\\x2d-\\x7e]+';
const ORIGIN = 'https?://[^\\s,/]+';

/** Every environment variable the service reads, in the order --help lists them. */
const VARIABLES = {
  PORT: variable(integer(PORTS), '3000', 'listen port (0: any free port)'),
  HOST: variable(anyText, '0.0.0.0', 'listen address'),
  DATABASE_URL: variable(
    matching(/^postgres(ql)?:\/\/\S+$/, 'a postgres:// or postgresql:// URL'),
    undefined,
    'the PostgreSQL server; unset: the embedded PGlite under DATA_DIR',
  ),
  DATABASE_PREPARED_STATEMENTS: variable(
    trueOrFalse,
    'true',
    'named prepared statements for the hot queries; false behind a pooler that cannot keep them',
  ),
  DATA_DIR: variable(anyText, '.data', 'where the embedded database, its lock, the admin socket and the development key live'),
  API_KEYS: variable(
    listOf(PRINTABLE_WITHOUT_COMMA, 'a comma-separated list of keys of printable ASCII characters without spaces'),
    undefined,
    'bootstrap keys accepted besides the issued ones; unset: the development key, refused in production',
  ),
  RATE_LIMIT_PER_MINUTE: variable(integer(PER_MINUTE), '6000', 'requests per minute for each API key'),
  RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: variable(integer(PER_MINUTE), '600', 'failed authentications per minute for each client address'),
  HTTP_HEADERS_TIMEOUT_MS: variable(integer(HTTP_TIMEOUT_MS), '10000', "time to receive a request's headers"),
  HTTP_REQUEST_TIMEOUT_MS: variable(
    integer(HTTP_TIMEOUT_MS),
    '15000',
    'time to receive a whole request, body included; at least HTTP_HEADERS_TIMEOUT_MS',
  ),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: variable(integer(HTTP_TIMEOUT_MS), '65000', 'how long an idle keep-alive connection is kept open'),
  SHUTDOWN_DRAIN_MS: variable(
    integer({ min: 0, max: 60_000 }),
    '5000',
    'after SIGTERM, how long the service keeps serving while /readyz answers 503, before it stops accepting connections',
  ),
  /** A day, as the Idempotency-Key draft and Stripe suggest: longer than any client's retries, short enough to bound the table. */
  IDEMPOTENCY_KEY_LIFETIME_SECONDS: variable(
    integer({ min: 1, max: 30 * 24 * 3600 }),
    '86400',
    'how long the answer to a create with an Idempotency-Key is kept for its retries',
  ),
  REDIS_URL: variable(
    matching(/^rediss?:\/\/\S+$/, 'a redis:// or rediss:// URL'),
    undefined,
    "rate limits shared by every instance; unset: counted in each instance's memory",
  ),
  CORS_ORIGINS: variable(
    matching(new RegExp(`^(\\*|${ORIGIN}(,${ORIGIN})*)$`), '* or a comma-separated list of origins such as https://app.example.com'),
    undefined,
    'origins allowed to call the API from a browser; unset: CORS is off',
  ),
  TRUST_PROXY: variable(trustedProxies, undefined, "whose X-Forwarded-For gives the client address; unset: no proxy's"),
  METRICS_PORT: variable(integer({ min: 1, max: 65535 }), undefined, 'serve /metrics on this port of HOST only, not on PORT'),
  METRICS_TOKEN: variable(
    matching(/^[\x21-\x7e]{16,256}$/, '16 to 256 printable ASCII characters without spaces'),
    undefined,
    '/metrics then asks for Authorization: Bearer <token>; in production, /metrics is served only with this or METRICS_PORT',
  ),
  GIT_COMMIT: variable(
    matching(/^[0-9a-f]{7,64}$/, 'a commit hash of 7 to 64 lower-case hexadecimal digits'),
    undefined,
    "the commit the service was built from, in /metrics's petstore_build_info; unset: unknown",
  ),
  LOG_LEVEL: variable(oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info', 'what the logs show'),
  NODE_ENV: variable(
    oneOf(['development', 'production', 'test']),
    'development',
    'production: JSON logs, API_KEYS is required, and /metrics is served only with METRICS_PORT or METRICS_TOKEN',
  ),
};

type VariableName = keyof typeof VARIABLES;

/** Every environment variable the service reads. */
export const CONFIG_VARIABLES = Object.keys(VARIABLES) as readonly VariableName[];

/** A variable's default, as written in the environment (e.g. for documents that state it). */
export function configDefault(name: VariableName): string | undefined {
  return VARIABLES[name].default;
}

/** One line a variable for --help: its name, its default and what it is for and accepts. */
export function configVariablesHelp(): string[] {
  const rows = CONFIG_VARIABLES.map((name) => {
    const { default: fallback, description, accepts } = VARIABLES[name];
    return [name, fallback ?? '(unset)', accepts === undefined ? description : `${description}; must be ${accepts}`];
  });
  const width = (column: number) => Math.max(...rows.map((row) => row[column].length));
  return rows.map(([name, fallback, text]) => `  ${name.padEnd(width(0))}  ${fallback.padEnd(width(1))}  ${text}`);
}

const environment = z
  .object(
    Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, VARIABLES[name].schema])) as {
      [Name in VariableName]: (typeof VARIABLES)[Name]['schema'];
    },
  )
  .superRefine(
    (env, context) => {
      if (!env.API_KEYS && env.NODE_ENV === 'production') {
        context.addIssue({ code: 'custom', message: 'API_KEYS must be set when NODE_ENV is production' });
      }
    },
    { when: () => true },
  )
  .superRefine(
    ({ HTTP_REQUEST_TIMEOUT_MS: requestMs, HTTP_HEADERS_TIMEOUT_MS: headersMs }, context) => {
      if (requestMs >= headersMs) return;
      context.addIssue({
        code: 'custom',
        message:
          `HTTP_REQUEST_TIMEOUT_MS (${requestMs}) must be at least HTTP_HEADERS_TIMEOUT_MS (${headersMs}): ` +
          'receiving a request includes receiving its headers',
      });
    },
    // When both are valid, whatever else is not.
    {
      when: ({ issues }) => !issues.some(({ path }) => ['HTTP_REQUEST_TIMEOUT_MS', 'HTTP_HEADERS_TIMEOUT_MS'].includes(String(path?.[0]))),
    },
  );

/** The service's configuration: read from the environment once (loadConfig), then passed around typed. */
export type AppConfig = ReturnType<typeof loadConfig>;

export class InvalidConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'InvalidConfigError';
  }
}

/** Validates the trimmed environment (empty: unset); throws InvalidConfigError with each variable's first problem, then cross-checks. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>) {
  const read = Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, env[name]?.trim() || undefined]));
  const result = environment.safeParse(read);
  if (!result.success) {
    const problems = result.error.issues.filter(
      ({ path }, index, issues) => path.length === 0 || issues.findIndex((other) => other.path[0] === path[0]) === index,
    );
    throw new InvalidConfigError(problems.map(({ message }) => message));
  }
  const parsed = result.data;
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    /** Undefined: the embedded database under `dataDir`. */
    databaseUrl: parsed.DATABASE_URL,
    preparedStatements: parsed.DATABASE_PREPARED_STATEMENTS,
    dataDir: parsed.DATA_DIR,
    apiKeys: parsed.API_KEYS ?? [],
    rateLimitPerMinute: parsed.RATE_LIMIT_PER_MINUTE,
    authFailuresPerMinute: parsed.RATE_LIMIT_AUTH_FAILURES_PER_MINUTE,
    /** Undefined: rate limits counted in each instance's memory. */
    redisUrl: parsed.REDIS_URL,
    /** Empty: CORS is off. */
    corsOrigins: parsed.CORS_ORIGINS?.split(',') ?? [],
    /** A hop count, trusted proxies (proxy-addr's forms), or false for none. */
    trustProxy: parsed.TRUST_PROXY ?? false,
    /** In milliseconds; a request's includes its headers'. */
    httpTimeouts: {
      headersMs: parsed.HTTP_HEADERS_TIMEOUT_MS,
      requestMs: parsed.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveMs: parsed.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    shutdownDrainMs: parsed.SHUTDOWN_DRAIN_MS,
    idempotencyKeyLifetimeSeconds: parsed.IDEMPOTENCY_KEY_LIFETIME_SECONDS,
    /** Who may scrape /metrics: on a port of its own (on HOST), and/or only with a bearer token. */
    metrics: {
      port: parsed.METRICS_PORT,
      token: parsed.METRICS_TOKEN,
      /** Without a port of its own, outside production or with a token (else nowhere). */
      onApiPort: parsed.METRICS_PORT === undefined && (parsed.NODE_ENV !== 'production' || parsed.METRICS_TOKEN !== undefined),
    },
    gitCommit: parsed.GIT_COMMIT,
    logLevel: parsed.LOG_LEVEL,
    production: parsed.NODE_ENV === 'production',
  } as const;
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
