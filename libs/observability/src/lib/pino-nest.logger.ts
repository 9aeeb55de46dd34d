import type { LoggerService } from '@nestjs/common';
import type { FastifyBaseLogger } from 'fastify';

/** Sends Nest's own log lines (start-up, lifecycle) to the same pino logger as Fastify's. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: FastifyBaseLogger) {}

  log(message: unknown, context?: string): void {
    this.pino.info({ context }, String(message));
  }

  error(message: unknown, trace?: string, context?: string): void {
    this.pino.error({ context, trace }, String(message));
  }

  warn(message: unknown, context?: string): void {
    this.pino.warn({ context }, String(message));
  }

  debug(message: unknown, context?: string): void {
    this.pino.debug({ context }, String(message));
  }

  verbose(message: unknown, context?: string): void {
    this.pino.trace({ context }, String(message));
  }
}
