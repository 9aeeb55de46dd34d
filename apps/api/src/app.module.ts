import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@petstore/auth';
import { AppConfig, HealthController, ReadinessProbe } from '@petstore/core';
import { Database, PersistenceModule, TypeOrmPetRepository } from '@petstore/persistence';
import { PetsModule } from '@petstore/pets';

/** Path prefix of the versioned API; everything under it requires a bearer token. */
export const API_PREFIX = 'v1';

/** The composition root: binds the ports to their adapters. */
@Module({})
export class AppModule {
  static register(config: AppConfig, apiKeys: readonly string[]): DynamicModule {
    const persistence = PersistenceModule.forRoot(
      config.databaseUrl ? { url: config.databaseUrl, preparedStatements: config.preparedStatements } : { dataDir: config.dataDir },
    );
    return {
      module: AppModule,
      imports: [
        persistence,
        AuthModule.register({ apiKeys, protectedPrefix: `/${API_PREFIX}/` }),
        PetsModule.register({ imports: [persistence], repository: TypeOrmPetRepository }),
      ],
      controllers: [HealthController],
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: ReadinessProbe, useFactory: (database: Database) => ({ check: () => database.ping() }), inject: [Database] },
      ],
    };
  }
}
