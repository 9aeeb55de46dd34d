import { type DynamicModule, Module, type ModuleMetadata, type Type } from '@nestjs/common';
import { AuthMetrics } from './auth-metrics';
import { BootstrapKeys } from './bearer.strategy';
import { BearerAuthHook } from './bearer-auth.hook';
import { BearerStrategy } from './bearer.strategy';
import { ApiKeyRepository } from '@petstore/domain';
import { IssuedKeys } from './keys/issued-keys';
import { KEY_ADMIN_SOCKET_PATH, KeyAdminSocket } from './keys/key-admin';
import { type RateLimitOptions, RateLimits } from './rate-limit/rate-limits';

export interface AuthOptions {
  /** Bootstrap keys from the environment, accepted besides the issued ones. */
  readonly apiKeys: readonly string[];
  /** Modules that provide `keyRepository`. */
  readonly imports: ModuleMetadata['imports'];
  /** The adapter that stores issued keys. */
  readonly keyRepository: Type<ApiKeyRepository>;
  /** Where the key CLI can reach this process, when it must go through it (embedded database). */
  readonly adminSocketPath?: string;
  readonly rateLimits: RateLimitOptions;
}

/** Bearer authentication with API keys for every route that is not Public, rate limited per key. */
@Module({})
export class AuthModule {
  static register(options: AuthOptions): DynamicModule {
    return {
      module: AuthModule,
      imports: options.imports,
      providers: [
        { provide: BootstrapKeys, useValue: new BootstrapKeys(options.apiKeys) },
        { provide: ApiKeyRepository, useExisting: options.keyRepository },
        AuthMetrics,
        {
          provide: IssuedKeys,
          useFactory: (repository: ApiKeyRepository, metrics: AuthMetrics) =>
            new IssuedKeys(repository, { keyLookups: metrics.keyLookups }),
          inject: [ApiKeyRepository, AuthMetrics],
        },
        { provide: RateLimits, useValue: new RateLimits(options.rateLimits) },
        { provide: KEY_ADMIN_SOCKET_PATH, useValue: options.adminSocketPath },
        KeyAdminSocket,
        BearerStrategy,
        BearerAuthHook,
      ],
      exports: [IssuedKeys],
    };
  }
}
