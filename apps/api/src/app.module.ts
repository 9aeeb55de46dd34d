import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule, keyAdminSocketPath } from '@petstore/auth';
import { AppConfig, HealthController, METRICS_TOKEN, MetricsController, ReadinessProbe } from '@petstore/core';
import { Database, PersistenceModule, SqlApiKeyRepository, SqlPetRepository } from '@petstore/persistence';
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
        AuthModule.register({
          apiKeys,
          protectedPrefix: `/${API_PREFIX}/`,
          imports: [persistence],
          keyRepository: SqlApiKeyRepository,
          // Only this process may open the embedded database, so the key CLI goes through it.
          adminSocketPath: config.databaseUrl ? undefined : keyAdminSocketPath(config.dataDir),
          rateLimits: {
            perKeyPerMinute: config.rateLimitPerMinute,
            authFailuresPerMinute: config.authFailuresPerMinute,
            redisUrl: config.redisUrl,
          },
        }),
        PetsModule.register({
          imports: [persistence],
          repository: SqlPetRepository,
          idempotency: { lifetimeSeconds: config.idempotencyKeyLifetimeSeconds },
        }),
      ],
      // /metrics on the API's port, unless it has a port of its own (main.ts).
      controllers: config.metrics.port === undefined ? [HealthController, MetricsController] : [HealthController],
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: METRICS_TOKEN, useValue: config.metrics.token },
        { provide: ReadinessProbe, useFactory: (database: Database) => ({ check: () => database.ping() }), inject: [Database] },
      ],
    };
  }
}
