import { timingSafeEqual } from 'node:crypto';
import { sha256 } from './keys/api-key-secret';
import type { Principal } from './principal';

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
