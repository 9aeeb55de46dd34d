import type { Client } from 'openapi-fetch';
import type { components, paths } from '../generated/petstore';

type NewPet = components['schemas']['NewPet'];
type Pet = components['schemas']['Pet'];
type PetstoreError = components['schemas']['Error'];

/** How createPet retries. Every field is optional. */
export interface CreatePetOptions {
  /** The Idempotency-Key (a new UUID unless given): keep your own to retry across restarts, within its lifetime (24 h by default). */
  readonly idempotencyKey?: string;
  /** Attempts in all, the first one included: 5 unless given. */
  readonly maxAttempts?: number;
  /** The longest wait before the first retry, doubled for each further one: 200 ms unless given. */
  readonly baseDelayMs?: number;
  /** No wait is longer, not even one a Retry-After asks for: 10 s unless given. */
  readonly maxDelayMs?: number;
  /** Stops waiting and retrying; the current request is aborted too. */
  readonly signal?: AbortSignal;
  /** How to wait (tests pass a fake). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter (tests pass a fixed one). */
  readonly random?: () => number;
}

const DEFAULTS = { maxAttempts: 5, baseDelayMs: 200, maxDelayMs: 10_000 } as const;
/** What the service answers when a retry may succeed: a create with the same key under way (409), the database unreachable (503). */
const RETRIED_STATUSES = new Set([409, 503]);
/** A create that may or may not have been done: the retry, with the same key, learns which. */
const OUTCOME_UNKNOWN = 'WRITE_OUTCOME_UNKNOWN';

/** Why createPet gave up: the service refused the pet (`status` and the Error `body`), or it could not be reached (`cause`). */
export class CreatePetError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly body?: PetstoreError,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'CreatePetError';
  }
}

type Attempt = { readonly pet: Pet } | { readonly failure: CreatePetError; readonly retryable: boolean; readonly retryAfterMs?: number };

/** Adds a pet once, retrying with one Idempotency-Key on network errors, 409, 503, WRITE_OUTCOME_UNKNOWN; else CreatePetError. */
export async function createPet(client: Client<paths>, newPet: NewPet, options: CreatePetOptions = {}): Promise<Pet> {
  const key = options.idempotencyKey ?? globalThis.crypto.randomUUID();
  const maxAttempts = options.maxAttempts ?? DEFAULTS.maxAttempts;
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    const outcome = await attemptCreate(client, newPet, key, options.signal);
    if ('pet' in outcome) return outcome.pet;
    if (!outcome.retryable || attempt >= maxAttempts) throw outcome.failure;
    await (options.sleep ?? sleep)(retryDelayMs(attempt, outcome.retryAfterMs, options), options.signal);
  }
}

async function attemptCreate(client: Client<paths>, newPet: NewPet, key: string, signal: AbortSignal | undefined): Promise<Attempt> {
  try {
    // The draft's form of the key: a structured-field string. A UUID needs no escaping.
    const { data, error, response } = await client.POST('/pets', {
      body: newPet,
      params: { header: { 'Idempotency-Key': `"${key}"` } },
      signal,
    });
    if (data) return { pet: data };
    const body = error as PetstoreError | undefined;
    const failure = new CreatePetError(
      `createPet: ${response.status} ${body?.code ?? ''} ${body?.message ?? ''}`.trim(),
      response.status,
      body,
    );
    const retryable = RETRIED_STATUSES.has(response.status) || body?.code === OUTCOME_UNKNOWN;
    return { failure, retryable, retryAfterMs: retryAfterMs(response.headers.get('retry-after')) };
  } catch (error) {
    // The caller's abort is final; anything else thrown by fetch is the network (refused, reset, timed out).
    if (signal?.aborted) throw error;
    return {
      failure: new CreatePetError('createPet: the service could not be reached', undefined, undefined, { cause: error }),
      retryable: true,
    };
  }
}

/** The wait before retry `attempt` (from 1): full jitter, so clients failed together retry apart; within Retry-After..maxDelayMs. */
export function retryDelayMs(attempt: number, retryAfter: number | undefined, options: CreatePetOptions = {}): number {
  const base = options.baseDelayMs ?? DEFAULTS.baseDelayMs;
  const max = options.maxDelayMs ?? DEFAULTS.maxDelayMs;
  const ceiling = Math.min(max, base * 2 ** (attempt - 1));
  const jittered = Math.floor((options.random ?? Math.random)() * ceiling);
  return Math.min(max, Math.max(jittered, retryAfter ?? 0));
}

/** An HTTP date as servers send it (RFC 9110 IMF-fixdate): `Sun, 06 Nov 1994 08:49:37 GMT`. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Retry-After in milliseconds: delta-seconds, or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  return HTTP_DATE.test(value) ? Math.max(0, Date.parse(value) - now) : undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- an abort rejects with the signal's reason, as fetch does
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- as above
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
