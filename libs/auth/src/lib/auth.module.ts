import { type DynamicModule, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { ApiKeyStore } from './api-key.store';
import { BearerAuthHook, PROTECTED_PREFIX } from './bearer-auth.hook';
import { BearerStrategy } from './bearer.strategy';

export interface AuthOptions {
  /** Keys accepted as bearer tokens. */
  readonly apiKeys: readonly string[];
  /** Routes under this path prefix require a bearer token; others are public. */
  readonly protectedPrefix: string;
}

/** Bearer authentication with API keys for every route under a path prefix. */
@Module({})
export class AuthModule {
  static register(options: AuthOptions): DynamicModule {
    return {
      module: AuthModule,
      imports: [PassportModule],
      providers: [
        { provide: ApiKeyStore, useValue: new ApiKeyStore(options.apiKeys) },
        { provide: PROTECTED_PREFIX, useValue: options.protectedPrefix },
        BearerStrategy,
        BearerAuthHook,
      ],
      exports: [ApiKeyStore],
    };
  }
}

