import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { RATE_LIMIT_POLICIES, RATE_LIMIT_WINDOW_SECONDS } from './rate-limit.api-docs';
import { Redis } from 'ioredis';
import type { LRUCache } from 'lru-cache';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { boundedLru } from '../bounded-lru';

export interface RateLimitOptions {
  /** Requests each API key may make per minute. */
  readonly perKeyPerMinute: number;
  /** Failed authentications each client address may make per minute; past them it gets 429 instead of 401. */
  readonly authFailuresPerMinute: number;
  /** Redis shared by every instance; without it each instance counts in its own memory. */
  readonly redisUrl?: string;
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

/** A Redis that does not answer in this time is bypassed (see RateLimits), not waited for. */
const REDIS_COMMAND_TIMEOUT_MS = 250;
const REDIS_CONNECT_WAIT_MS = 2000;
/**
 * The most clients (keys or addresses) each policy keeps a count for in memory. Past it the
 * least recently seen is forgotten: memory stays bounded (about 100 bytes a client) however many
 * addresses a flood comes from, and a forgotten client merely starts a fresh window.
 */
export const MAX_COUNTED_CLIENTS = 100_000;
/** Database lookups of key prefixes this instance has never seen valid, per client address and second. */
export const UNKNOWN_KEY_LOOKUPS_PER_SECOND = 10;

interface Count {
  readonly remaining: number;
  readonly msBeforeReset: number;
  readonly exceeded: boolean;
}

interface Window {
  count: number;
  readonly resetsAt: number;
}

/**
 * One fixed-window policy. Counted in Redis when it is given and answers; otherwise, and
 * whenever Redis fails, in this instance's bounded memory. A client over its limit is remembered
 * until the window ends, so a flood of refused requests costs no round trip to Redis.
 */
class Policy {
  private readonly windowMs: number;
  private readonly local: LRUCache<string, Window>;
  private readonly blockedUntil = boundedLru<number>(MAX_COUNTED_CLIENTS);

  constructor(
    readonly name: string,
    readonly limit: number,
    windowSeconds: number,
    private readonly shared?: RateLimiterRedis,
  ) {
    this.windowMs = windowSeconds * 1000;
    this.local = boundedLru(MAX_COUNTED_CLIENTS);
  }

  async consume(client: string): Promise<Quota> {
    const now = Date.now();
    const blockedUntil = this.blockedUntil.get(client) ?? 0;
    if (blockedUntil > now) return this.quota({ remaining: 0, msBeforeReset: blockedUntil - now, exceeded: true });
    const count = (this.shared && (await this.countShared(this.shared, client))) || this.countLocally(client, now);
    if (count.exceeded) this.blockedUntil.set(client, now + count.msBeforeReset);
    return this.quota(count);
  }

  /** The count in Redis; undefined when Redis failed, so that memory counts instead. */
  private async countShared(shared: RateLimiterRedis, client: string): Promise<Count | undefined> {
    try {
      const result = await shared.consume(client);
      return { remaining: result.remainingPoints, msBeforeReset: result.msBeforeNext, exceeded: false };
    } catch (rejection) {
      return rejection instanceof RateLimiterRes ? { remaining: 0, msBeforeReset: rejection.msBeforeNext, exceeded: true } : undefined;
    }
  }

  private countLocally(client: string, now: number): Count {
    let window = this.local.get(client);
    if (!window || window.resetsAt <= now) {
      window = { count: 0, resetsAt: now + this.windowMs };
      this.local.set(client, window);
    }
    window.count += 1;
    return { remaining: Math.max(this.limit - window.count, 0), msBeforeReset: window.resetsAt - now, exceeded: window.count > this.limit };
  }

  private quota({ remaining, msBeforeReset, exceeded }: Count): Quota {
    return { policy: this.name, limit: this.limit, remaining, resetSeconds: Math.ceil(Math.max(msBeforeReset, 0) / 1000), exceeded };
  }
}

/**
 * The service's rate limits: requests per API key; failed authentications per client address
 * (so that guessing keys is slow); and database lookups of never-seen key prefixes per client
 * address (so that random keys cannot hammer the database). Requests and failures are counted
 * in Redis when configured, so every instance draws on one budget; should Redis fail, each
 * instance counts in memory until it is back. Lookups protect this instance's own pool: memory only.
 */
@Injectable()
export class RateLimits implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(RateLimits.name);
  private readonly redis?: Redis;
  private readonly perKey: Policy;
  private readonly authFailures: Policy;
  private readonly unknownKeyLookups: Policy;

  constructor(options: RateLimitOptions) {
    if (options.redisUrl) {
      // No offline queue: while Redis is away a command fails at once and memory counts instead.
      this.redis = new Redis(options.redisUrl, {
        enableOfflineQueue: false,
        commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
        disconnectTimeout: REDIS_COMMAND_TIMEOUT_MS,
        lazyConnect: true,
      });
      this.watch(this.redis);
    }
    this.perKey = this.sharedPolicy(RATE_LIMIT_POLICIES.perKey, options.perKeyPerMinute);
    this.authFailures = this.sharedPolicy(RATE_LIMIT_POLICIES.authFailures, options.authFailuresPerMinute);
    this.unknownKeyLookups = new Policy('unknown-key-lookups', UNKNOWN_KEY_LOOKUPS_PER_SECOND, 1);
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

  /** Waits a moment for Redis, so that the first requests already share the budget. */
  async onModuleInit(): Promise<void> {
    if (!this.redis) return;
    const connected = this.redis.connect().then(
      () => true,
      () => false,
    );
    const timedOut = new Promise<boolean>((resolve) => setTimeout(resolve, REDIS_CONNECT_WAIT_MS, false).unref());
    if (!(await Promise.race([connected, timedOut])))
      this.logger.warn('Redis is not reachable: rate limits are counted per instance until it is');
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis?.disconnect();
  }

  private sharedPolicy(name: string, limit: number): Policy {
    const shared = this.redis
      ? new RateLimiterRedis({
          keyPrefix: `petstore:rate-limit:${name}`,
          points: limit,
          duration: RATE_LIMIT_WINDOW_SECONDS,
          storeClient: this.redis,
        })
      : undefined;
    return new Policy(name, limit, RATE_LIMIT_WINDOW_SECONDS, shared);
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
