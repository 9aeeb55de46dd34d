// The key CLI on the database itself, when no service runs on the embedded one or on DATABASE_URL:
// Nest, the key store and the database, loaded by main.ts only then.
import 'reflect-metadata';
import { ConsoleLogger, Logger } from '@nestjs/common';
import { IssuedKeys, runKeyCommand } from '@petstore/auth/key-store';
import { type KeyCommand, KeyCommandError, type KeyCommandResult } from '@petstore/auth/key-commands';
import type { loadDatabaseConfig } from '@petstore/config';
import { Database, DatabaseMetrics, DataDirInUseError, SqlApiKeyRepository } from '@petstore/persistence';
import { Registry } from 'prom-client';

export async function executeOnDatabase(config: ReturnType<typeof loadDatabaseConfig>, command: KeyCommand): Promise<KeyCommandResult> {
  // Nest's warnings (the data directory's) through console.log, which main.ts sends to stderr; the
  // service's own start-up lines (which database, which migrations) are not the CLI's to say.
  Logger.overrideLogger(new ConsoleLogger({ forceConsole: true, logLevels: ['warn', 'error', 'fatal'] }));
  const location = config.databaseUrl ? { url: config.databaseUrl, preparedStatements: false } : { dataDir: config.dataDir };
  // Its metrics go to a registry of its own, which nothing serves.
  const database = new Database(location, new DatabaseMetrics(new Registry()));
  try {
    await database.onModuleInit();
  } catch (error) {
    throw error instanceof DataDirInUseError ? new KeyCommandError(error.message) : error;
  }
  try {
    return await runKeyCommand(new IssuedKeys(new SqlApiKeyRepository(database)), command);
  } finally {
    await database.onApplicationShutdown();
  }
}
