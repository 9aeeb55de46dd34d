import { timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { AUTH_REALM } from '@petstore/http';
import { parseApiKey, sha256 } from './keys/api-key-secret';
import { IssuedKeys } from './keys/issued-keys';
import type { Principal } from './bearer-auth.hook';
import { RateLimits } from './rate-limit/rate-limits';

interface StoredKey {
  readonly digest: Buffer;
  readonly principal: Principal;
}

/** The API_KEYS keys as SHA-256 digests; a token is compared with every one in constant time, so timing reveals nothing. */
export class BootstrapKeys {
  private readonly keys: readonly StoredKey[];

  constructor(keys: readonly string[]) {
    this.keys = keys.map((key, index) => ({ digest: sha256(key), principal: { keyId: `env-${index + 1}` } }));
  }

  /** The principal of the key equal to `token`, or undefined. */
  verify(token: string): Principal | undefined {
    const digest = sha256(token);
    let match: Principal | undefined;
    for (const key of this.keys) if (timingSafeEqual(digest, key.digest)) match = key.principal;
    return match;
  }
}

/** What the strategy sees: headers alone (no token from the query or body); it records the key prefix for the failure log. */
export interface AuthenticationRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** How many Authorization headers the request carried (`headers` holds the first). */
  readonly authorizationHeaders: number;
  readonly clientAddress: string;
  presented?: { readonly keyPrefix: string | undefined };
}

/** The name the strategy goes by in passport. */
export const BEARER_STRATEGY = 'bearer';

/**
 * passport-http-bearer (RFC 6750) resolving a token to a Principal: bootstrap keys first (no I/O), then issued keys. Used
 * through the application's own Authenticator (BearerAuthHook); why passport's default one is written to: decision 0004.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, BEARER_STRATEGY) {
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
