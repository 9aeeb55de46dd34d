import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { ApiKeyStore } from './api-key.store';
import type { Principal } from './principal';

/** Realm named in every WWW-Authenticate challenge. */
export const AUTH_REALM = 'petstore';

/** passport-http-bearer, resolving a bearer token to the Principal of a known API key. */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly keys: ApiKeyStore) {
    super({ realm: AUTH_REALM });
  }

  validate(token: string): Principal | false {
    return this.keys.verify(token) ?? false;
  }
}
