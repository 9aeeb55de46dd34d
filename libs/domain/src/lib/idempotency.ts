import type { Pet } from './pet';

/** The longest Idempotency-Key a client may send, in characters. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** A create that a client may send any number of times and that takes effect once. */
export interface IdempotentRequest {
  /** Who sent it (the API key's public name): a key is scoped to it, so clients never meet each other's keys. */
  readonly principal: string;
  /** The client's key for this create: 1 to IDEMPOTENCY_KEY_MAX_LENGTH characters of visible ASCII (a UUID, a token, a path…). */
  readonly key: string;
  /** A digest of the request as received: the same key with another digest is another request, refused. */
  readonly fingerprint: Uint8Array;
}

/** An idempotent create's outcome: created now; replayed (same key and request); mismatch (another request); or in progress. */
export type CreateOnceResult =
  | { readonly outcome: 'created'; readonly pet: Pet }
  | { readonly outcome: 'replayed'; readonly pet: Pet }
  | { readonly outcome: 'mismatch' }
  | { readonly outcome: 'in-progress' };

/** The domain's port for the records of idempotent requests past their lifetime: the sweeper's, apart from the pets'. */
export abstract class IdempotencyRecordRepository {
  /** Deletes at most `limit` expired records of idempotent requests (never their pets); returns how many. */
  abstract deleteExpiredIdempotencyRecords(limit: number): Promise<number>;
}
