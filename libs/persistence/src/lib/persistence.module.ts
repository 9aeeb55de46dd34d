import { type DynamicModule, Module } from '@nestjs/common';
import { Database, DATABASE_LOCATION } from './database';
import { DatabaseMetrics } from './database-metrics';
import type { DatabaseLocation } from './data-source';
import { SqlApiKeyRepository } from './sql-api-key.repository';
import { SqlPetRepository } from './sql-pet.repository';

/** The database and the repository adapters built on it; the application's metrics Registry is injected. */
@Module({})
export class PersistenceModule {
  static forRoot(location: DatabaseLocation): DynamicModule {
    return {
      module: PersistenceModule,
      providers: [{ provide: DATABASE_LOCATION, useValue: location }, DatabaseMetrics, Database, SqlPetRepository, SqlApiKeyRepository],
      exports: [Database, SqlPetRepository, SqlApiKeyRepository],
    };
  }
}
