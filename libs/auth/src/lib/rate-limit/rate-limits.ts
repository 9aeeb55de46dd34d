import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { RATE_LIMIT_POLICIES, RATE_LIMIT_WINDOW_SECONDS } from '@petstore/http';
import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateLimitOptions {
  /** Requests each API key may make per minute. */
  readonly perKeyPerMinute: number;
  /** Failed authentications each client address may make per minute; past them it gets 429 instead of 401. */
  readonly authFailuresPerMinute: number;
  /** Redis shared by every instance; without it each instance counts in its own memory. */
  readonly redisUrl?: string;
  /** How long to wait for Redis (ms) to connect and per command before memory counts instead; tests on loaded machines raise it. */
  readonly redisWaitMs?: { readonly connect: number; readonly command: number };
}

/** Where a client stands against one policy: what the RateLimit header fields report. */
export interface Quota {
  readonly policy: string;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets. */
  readonly resetSeconds: number;
  readonly exceeded: boolean;
}

/** A Redis that does not answer a command in this time is bypassed (see RateLimits), not waited for. */
const REDIS_WAIT_MS = { connect: 2000, command: 250 };
/** Database lookups of key prefixes this instance has never seen valid, per client address and second. */
export const UNKNOWN_KEY_LOOKUPS_PER_SECOND = 10;

class Policy {
  constructor(
    readonly name: string,
    readonly limit: number,
    readonly limiter: RateLimiterAbstract,
  ) {}

  async consume(client: string): Promise<Quota> {
    try {
      return this.quota(await this.limiter.consume(client), false);
    } catch (rejection) {
      // Memory stands in for Redis when it fails (insuranceLimiter): nothing else rejects.
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return this.quota(rejection, true);
    }
  }

  private quota({ remainingPoints, msBeforeNext }: RateLimiterRes, exceeded: boolean): Quota {
    const resetSeconds = Math.ceil(Math.max(msBeforeNext, 0) / 1000);
    return { policy: this.name, limit: this.limit, remaining: remainingPoints, resetSeconds, exceeded };
  }
}

/** Per-key requests, per-address failures (shared via Redis, memory while it fails) and unknown-key lookups: docs/security.md. */
@Injectable()
export class RateLimits implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(RateLimits.name);
  private redis?: Redis;
  private readonly redisWaitMs: { readonly connect: number; readonly command: number };
  // Counted in memory; onModuleInit moves them to Redis when one is configured (countingPolicies).
  private perKey: Policy;
  private authFailures: Policy;
  private readonly unknownKeyLookups: Policy;

  constructor(private readonly options: RateLimitOptions) {
    this.redisWaitMs = options.redisWaitMs ?? REDIS_WAIT_MS;
    [this.perKey, this.authFailures] = this.countingPolicies();
    const lookups = { points: UNKNOWN_KEY_LOOKUPS_PER_SECOND, duration: 1 };
    this.unknownKeyLookups = new Policy('unknown-key-lookups', lookups.points, new RateLimiterMemory(lookups));
  }

  /** Counts one request of an authenticated key. */
  consumeRequest(keyId: string): Promise<Quota> {
    return this.perKey.consume(keyId);
  }

  /** Counts one failed authentication from a client address. */
  consumeAuthFailure(address: string): Promise<Quota> {
    return this.authFailures.consume(address);
  }

  /** Whether a client address may have one more never-seen key prefix looked up in the database now. */
  async mayLookUpUnknownKey(address: string): Promise<boolean> {
    return !(await this.unknownKeyLookups.consume(address)).exceeded;
  }

  /** Shares the limits through Redis, if given, and waits a moment for it, so that the first requests already share the budget. */
  async onModuleInit(): Promise<void> {
    const { redisUrl } = this.options;
    if (!redisUrl) return;
    // Loaded only here: a service without Redis starts without ioredis's modules (docs/performance.md, "Start-up and memory").
    const { Redis } = await import('ioredis');
    // No offline queue: while Redis is away a command fails at once and memory counts instead.
    const redis = new Redis(redisUrl, {
      enableOfflineQueue: false,
      commandTimeout: this.redisWaitMs.command,
      disconnectTimeout: this.redisWaitMs.command,
      lazyConnect: true,
    });
    this.watch(redis);
    this.redis = redis;
    [this.perKey, this.authFailures] = this.countingPolicies();
    const connected = redis.connect().then(
      () => true,
      () => false,
    );
    const timedOut = new Promise<boolean>((resolve) => setTimeout(resolve, this.redisWaitMs.connect, false).unref());
    if (!(await Promise.race([connected, timedOut])))
      this.logger.warn('Redis is not reachable: rate limits are counted per instance until it is');
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }

  /** The per-key and per-address policies: on this.redis, if set, with memory standing in while it fails; else in memory. */
  private countingPolicies(): [Policy, Policy] {
    const { perKeyPerMinute, authFailuresPerMinute } = this.options;
    return [
      this.sharedPolicy(RATE_LIMIT_POLICIES.perKey, perKeyPerMinute),
      this.sharedPolicy(RATE_LIMIT_POLICIES.authFailures, authFailuresPerMinute),
    ];
  }

  private sharedPolicy(name: string, limit: number): Policy {
    const window = { points: limit, duration: RATE_LIMIT_WINDOW_SECONDS };
    const memory = new RateLimiterMemory({ ...window, keyPrefix: name });
    if (!this.redis) return new Policy(name, limit, memory);
    const redis = new RateLimiterRedis({
      ...window,
      keyPrefix: `petstore:rate-limit:${name}`,
      storeClient: this.redis,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
      // Over its limit, a client is refused from memory until its window ends.
      inMemoryBlockOnConsumed: limit + 1,
    });
    return new Policy(name, limit, redis);
  }

  /** Logs when Redis goes away and comes back, once each, not on every reconnection attempt. */
  private watch(redis: Redis): void {
    let up = false;
    redis.on('ready', () => {
      up = true;
      this.logger.log('Redis connected: rate limits are shared by every instance');
    });
    redis.on('error', (error: Error) => {
      if (up) this.logger.warn(`Redis failed (${error.message}): rate limits are counted per instance until it is back`);
      up = false;
    });
  }
}

/** The IETF RateLimit-Policy and RateLimit header fields (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(quota: Quota): Record<string, string> {
  return {
    'ratelimit-policy': `"${quota.policy}";q=${quota.limit};w=${RATE_LIMIT_WINDOW_SECONDS}`,
    ratelimit: `"${quota.policy}";r=${quota.remaining};t=${quota.resetSeconds}`,
  };
}
