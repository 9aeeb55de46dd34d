import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { ApiKeyStore } from './api-key.store';
import { ApiKeys } from './keys/api-keys';
import type { Principal } from './principal';

/** Realm named in every WWW-Authenticate challenge. */
export const AUTH_REALM = 'petstore';

/**
 * passport-http-bearer, resolving a bearer token to the Principal of a known API key: one of
 * the bootstrap keys from the environment (checked first: no I/O), or an issued key.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(
    private readonly bootstrapKeys: ApiKeyStore,
    private readonly issuedKeys: ApiKeys,
  ) {
    super({ realm: AUTH_REALM });
  }

  async validate(token: string): Promise<Principal | false> {
    return this.bootstrapKeys.verify(token) ?? (await this.issuedKeys.verify(token)) ?? false;
  }
}
