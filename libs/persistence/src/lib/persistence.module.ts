import { type DynamicModule, Module } from '@nestjs/common';
import { Database, DATABASE_LOCATION } from './database';
import type { DatabaseLocation } from './data-source';
import { TypeOrmApiKeyRepository } from './typeorm-api-key.repository';
import { TypeOrmPetRepository } from './typeorm-pet.repository';

/** The database and the repository adapters built on it. */
@Module({})
export class PersistenceModule {
  static forRoot(location: DatabaseLocation): DynamicModule {
    return {
      module: PersistenceModule,
      providers: [{ provide: DATABASE_LOCATION, useValue: location }, Database, TypeOrmPetRepository, TypeOrmApiKeyRepository],
      exports: [Database, TypeOrmPetRepository, TypeOrmApiKeyRepository],
    };
  }
}
