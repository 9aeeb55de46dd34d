import { Logger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

/** TypeORM's messages (lost connections, migrations) through the service's logger, JSON in production; queries are not logged. */
export class NestTypeOrmLogger implements TypeOrmLogger {
  private readonly logger = new Logger('TypeORM');

  // The repositories bypass TypeORM, whose few queries are not worth a line each; synchronize is off: no schema build.
  logQuery(): void {}
  logSchemaBuild(): void {}

  logQueryError(error: string | Error, query: string): void {
    this.logger.error(`Query failed: ${error instanceof Error ? error.message : error} (${query})`);
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`Slow query (${time} ms): ${query}`);
  }

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.log(String(message));
  }
}
