import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, Min, validateSync } from 'class-validator';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;

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
    logLevel: parsed.LOG_LEVEL,
    production: parsed.NODE_ENV === 'production',
  };
}

function trimmedCopy(env: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  const keys: (keyof Environment)[] = ['PORT', 'HOST', 'DATABASE_URL', 'DATABASE_PREPARED_STATEMENTS', 'DATA_DIR', 'API_KEYS', 'LOG_LEVEL', 'NODE_ENV'];
  return Object.fromEntries(keys.map((key) => [key, trimmed({ value: env[key] })]));
}
