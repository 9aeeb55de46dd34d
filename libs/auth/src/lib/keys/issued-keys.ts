import { Injectable, Logger } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { boundedLru } from '../bounded-lru';
import type { Principal } from '../bearer-auth.hook';
import { type ApiKeyRecord, type ApiKeyRef, ApiKeyRepository, type ApiKeyRevocation, type StoredApiKey } from '@petstore/domain';
import { generateApiKey, parseApiKey, sha256 } from './api-key-secret';

/** How long an instance trusts a key it read: how late a revocation may reach another instance (docs/security.md). */
export const KEY_CACHE_TTL_MS = 1000;
/** last_used_at is written at most this often per key and instance: a timestamp, not a hit counter. */
export const LAST_USED_PRECISION_MS = 60_000;
export const KEY_NAME_MAX_LENGTH = 100;
const PREFIX_ATTEMPTS = 3;
/** How many valid prefixes an instance remembers having seen (see verify); far more than the keys in use. */
const REMEMBERED_VALID_PREFIXES = 100_000;

export class InvalidKeyNameError extends Error {
  constructor() {
    super(`A key name must be 1 to ${KEY_NAME_MAX_LENGTH} characters, without control characters or surrounding spaces`);
    this.name = 'InvalidKeyNameError';
  }
}

export interface IssuedKeysOptions {
  /** The clock, in milliseconds. */
  readonly now?: () => number;
  /** Counts each lookup by prefix in the database (AuthMetrics' keyLookups); the key CLI counts none. */
  readonly keyLookups?: { inc(): void };
}

interface CachedLookup {
  readonly key: Promise<StoredApiKey | undefined>;
  readonly expiresAt: number;
}

/** Issues, lists, revokes and verifies the API keys kept in the database. */
@Injectable()
export class IssuedKeys {
  private readonly logger = new Logger(IssuedKeys.name);
  private readonly lookups = new Map<string, CachedLookup>();
  private readonly lastTouched = new Map<string, number>();
  private readonly seenValid = boundedLru<true>(REMEMBERED_VALID_PREFIXES);
  private readonly now: () => number;
  private readonly keyLookups?: { inc(): void };

  constructor(
    private readonly repository: ApiKeyRepository,
    { now = Date.now, keyLookups }: IssuedKeysOptions = {},
  ) {
    this.now = now;
    this.keyLookups = keyLookups;
  }

  /** Issues a key. The token is returned once and kept nowhere: only its SHA-256 is stored. */
  async create(name: string): Promise<{ key: ApiKeyRecord; token: string }> {
    if (!isValidName(name)) throw new InvalidKeyNameError();
    // A 48-bit prefix almost never collides; the retry covers it.
    for (let attempt = 0; attempt < PREFIX_ATTEMPTS; attempt++) {
      const generated = generateApiKey();
      const key = await this.repository.insert({ name, prefix: generated.prefix, secretSha256: generated.secretSha256 });
      if (key) return { key, token: generated.token };
    }
    throw new Error(`No free key prefix in ${PREFIX_ATTEMPTS} attempts`);
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.repository.list();
  }

  /** Revokes a key, unless it was revoked already; this instance refuses it from the next request on. */
  async revoke(ref: ApiKeyRef): Promise<ApiKeyRevocation | undefined> {
    const revocation = await this.repository.revoke(ref);
    if (revocation) this.lookups.delete(revocation.key.prefix);
    return revocation;
  }

  /** The principal of the issued, unrevoked key equal to `token`; a never-seen prefix is looked up only if `mayLookUpUnknown`. */
  async verify(token: string, mayLookUpUnknown: () => Promise<boolean> = () => Promise.resolve(true)): Promise<Principal | undefined> {
    const parsed = parseApiKey(token);
    if (!parsed) return undefined;
    const key = await this.lookup(parsed.prefix, mayLookUpUnknown);
    if (!key || key.revokedAt || !timingSafeEqual(sha256(parsed.secret), key.secretSha256)) return undefined;
    this.seenValid.set(key.prefix, true);
    this.recordUse(key);
    return { keyId: key.prefix };
  }

  /** Concurrent requests with the same key share one lookup (and one use of the budget); unknown prefixes are not remembered. */
  private lookup(prefix: string, mayLookUpUnknown: () => Promise<boolean>): Promise<StoredApiKey | undefined> {
    const now = this.now();
    const cached = this.lookups.get(prefix);
    if (cached && cached.expiresAt > now) return cached.key;
    const forget = () => {
      if (this.lookups.get(prefix) === lookup) this.lookups.delete(prefix);
    };
    const allowed = this.seenValid.has(prefix) ? Promise.resolve(true) : mayLookUpUnknown();
    const key = allowed.then((yes) => (yes ? this.findByPrefix(prefix) : undefined));
    const lookup: CachedLookup = { key, expiresAt: now + KEY_CACHE_TTL_MS };
    this.lookups.set(prefix, lookup);
    key.then((found) => found || forget(), forget);
    return key;
  }

  private findByPrefix(prefix: string): Promise<StoredApiKey | undefined> {
    this.keyLookups?.inc();
    return this.repository.findByPrefix(prefix);
  }

  private recordUse(key: StoredApiKey): void {
    const now = this.now();
    const last = this.lastTouched.get(key.prefix) ?? key.lastUsedAt?.getTime() ?? 0;
    if (now - last < LAST_USED_PRECISION_MS) return;
    this.lastTouched.set(key.prefix, now);
    this.repository
      .touch(key.id)
      .catch((error: unknown) => this.logger.warn(`Could not record the use of key ${key.prefix}: ${String(error)}`));
  }
}

function isValidName(name: string): boolean {
  const length = [...name].length;
  return length >= 1 && length <= KEY_NAME_MAX_LENGTH && name.trim() === name && !/\p{Cc}/u.test(name);
}
