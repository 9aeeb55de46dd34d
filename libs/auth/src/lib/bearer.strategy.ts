import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { AUTH_REALM } from './auth-realm';
import { BootstrapKeys } from './bootstrap-keys';
import { parseApiKey } from './keys/api-key-secret';
import { IssuedKeys } from './keys/issued-keys';
import type { Principal } from './principal';
import { RateLimits } from './rate-limit/rate-limits';

/**
 * What the strategy is shown of a request: its headers alone (so that no token is taken from
 * the query string or the body), and the address its failures count against. The strategy
 * records the token it was handed, by its public prefix at most: the hook's log names it.
 */
export interface AuthenticationRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** How many Authorization headers the request carried (`headers` holds the first). */
  readonly authorizationHeaders: number;
  readonly clientAddress: string;
  presented?: { readonly keyPrefix: string | undefined };
}

/**
 * passport-http-bearer (the library of record for reading the header, RFC 6750), resolving a bearer token to the Principal of a known API key: one of
 * the bootstrap keys from the environment (checked first: no I/O), or an issued key.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(
    private readonly bootstrapKeys: BootstrapKeys,
    private readonly issuedKeys: IssuedKeys,
    private readonly limits: RateLimits,
  ) {
    super({ realm: AUTH_REALM, passReqToCallback: true });
  }

  async validate(request: AuthenticationRequest, token: string): Promise<Principal | false> {
    request.presented = { keyPrefix: parseApiKey(token)?.prefix };
    const mayLookUpUnknown = () => this.limits.mayLookUpUnknownKey(request.clientAddress);
    return this.bootstrapKeys.verify(token) ?? (await this.issuedKeys.verify(token, mayLookUpUnknown)) ?? false;
  }
}
