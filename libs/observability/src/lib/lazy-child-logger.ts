import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, FastifyChildLoggerFactory } from 'fastify/types/logger';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger, made on the first line it logs. Fastify gives every request a pino child
 * bound to its id, which serializes the bindings (about 0.2 µs and a few objects per request)
 * whether or not anything is logged; at LOG_LEVEL=warn almost no request logs a line. One object
 * per request, its methods on the prototype.
 */
class LazyChildLogger implements FastifyBaseLogger {
  private made?: FastifyBaseLogger;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  fatal(...args: unknown[]): void {
    this.log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.log('error', args);
  }
  warn(...args: unknown[]): void {
    this.log('warn', args);
  }
  info(...args: unknown[]): void {
    this.log('info', args);
  }
  debug(...args: unknown[]): void {
    this.log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.log('trace', args);
  }
  silent(): void {
    // Logs nothing, as pino's.
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  private log(level: Level, args: unknown[]): void {
    (this.logger[level] as (...args: unknown[]) => void)(...args);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger, made when first used. */
export const lazyChildLoggerFactory: FastifyChildLoggerFactory = (logger, bindings, options) =>
  new LazyChildLogger(logger, bindings, options);
