/** An issued API key as operators see it: everything but its secret. */
export interface ApiKeyRecord {
  /** int64 identity, as a decimal string. */
  readonly id: string;
  readonly name: string;
  /** The public part of the key, `ps_<prefix>`: safe to log and to show. */
  readonly prefix: string;
  readonly createdAt: Date;
  /** When the key last authenticated a request, to within a minute; null if never. */
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
}

/** An issued key with the SHA-256 digest of its secret, as the store keeps it. */
export interface StoredApiKey extends ApiKeyRecord {
  readonly secretSha256: Buffer;
}

/** How an operator names a key: its id (decimal digits) or its public prefix. */
export type ApiKeyRef = { readonly id: string } | { readonly prefix: string };

/** What revoking a key found: a key revoked now, or one revoked already (at `key.revokedAt`, the first revocation). */
export interface ApiKeyRevocation {
  readonly key: ApiKeyRecord;
  readonly alreadyRevoked: boolean;
}

/** The store of issued API keys: a port in the domain, so that auth (uses it) and persistence (implements it) both depend on it. */
export abstract class ApiKeyRepository {
  /** Stores a new key; undefined when the prefix is already taken. */
  abstract insert(key: { name: string; prefix: string; secretSha256: Buffer }): Promise<ApiKeyRecord | undefined>;
  abstract findByPrefix(prefix: string): Promise<StoredApiKey | undefined>;
  /** Every key, oldest first. */
  abstract list(): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked, keeping the first revocation time; undefined when there is no such key (an id out of range included). */
  abstract revoke(ref: ApiKeyRef): Promise<ApiKeyRevocation | undefined>;
  /** Records that the key was just used. */
  abstract touch(id: string): Promise<void>;
}
