import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AuthModule, keyAdminSocketPath } from '@petstore/auth';
import type { AppConfig } from '@petstore/config';
import { RouteMethods } from '@petstore/http';
import { ErrorBodyFilter } from '@petstore/http-errors';
import {
  type AppMetrics,
  Drain,
  HealthController,
  METRICS_TOKEN,
  MetricsController,
  MetricsRegistryModule,
  ReadinessProbe,
} from '@petstore/observability';
import { Database, type DatabaseLocation, PersistenceModule, SqlApiKeyRepository, SqlPetRepository } from '@petstore/persistence';
import { PetsModule } from '@petstore/pets';

/** Path prefix of the versioned API (a route needs a bearer key wherever it is, unless @Public(): decision 0002). */
export const API_PREFIX = 'v1';

/** Where the configuration puts the data: DATABASE_URL's server, or the embedded database under DATA_DIR. */
export function databaseLocationOf(config: AppConfig): DatabaseLocation {
  return config.databaseUrl ? { url: config.databaseUrl, preparedStatements: config.preparedStatements } : { dataDir: config.dataDir };
}

/** The service's modules: ports bound to adapters, the app's own metrics registry, the Error body filter (createApp wraps it). */
@Module({})
export class AppModule {
  static register(
    config: AppConfig,
    apiKeys: readonly string[],
    location: DatabaseLocation,
    metrics: AppMetrics,
    drain: Drain,
  ): DynamicModule {
    const persistence = PersistenceModule.forRoot(location);
    return {
      module: AppModule,
      imports: [
        MetricsRegistryModule.of(metrics.registry),
        persistence,
        AuthModule.register({
          apiKeys,
          imports: [persistence],
          keyRepository: SqlApiKeyRepository,
          // Only this process may open the embedded database, so the key CLI goes through it.
          adminSocketPath: 'dataDir' in location ? keyAdminSocketPath(location.dataDir) : undefined,
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
      // /metrics on the API's port unless it has a port of its own (server.ts) or, in production, no token.
      controllers: config.metrics.onApiPort ? [HealthController, MetricsController] : [HealthController],
      providers: [
        { provide: Drain, useValue: drain },
        { provide: METRICS_TOKEN, useValue: config.metrics.token },
        { provide: ReadinessProbe, useFactory: readinessOf, inject: [Database] },
        { provide: APP_FILTER, useValue: new ErrorBodyFilter(metrics.errorAnswers) },
        RouteMethods,
      ],
    };
  }
}

/** Ready while the database answers; degraded, not out of rotation, while it takes no writes: reads are still served. */
function readinessOf(database: Database): ReadinessProbe {
  return { check: async () => ((await database.acceptsWrites()) ? [] : ['writes: the database is read-only']) };
}
