import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { RATE_LIMIT_POLICIES, RATE_LIMIT_WINDOW_SECONDS } from '@petstore/core';
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateLimitOptions {
  /** Requests each API key may make per minute. */
  readonly perKeyPerMinute: number;
  /** Failed authentications each client address may make per minute before it is refused outright. */
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
const MAX_REMEMBERED_BLOCKS = 10_000;

/**
 * One fixed-window policy. A client over its limit is remembered in memory until the window
 * ends, so a flood of refused requests costs no round trip to a shared store.
 */
class Policy {
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    readonly name: string,
    readonly limit: number,
    private readonly limiter: RateLimiterAbstract,
  ) {}

  /** The quota of `client` when it is refused until the window ends, without counting anything. */
  blocked(client: string): Quota | undefined {
    const until = this.blockedUntil.get(client);
    if (until === undefined) return undefined;
    const msLeft = until - Date.now();
    if (msLeft > 0) return this.quota(0, msLeft, true);
    this.blockedUntil.delete(client);
    return undefined;
  }

  async consume(client: string): Promise<Quota> {
    const blocked = this.blocked(client);
    if (blocked) return blocked;
    try {
      const result = await this.limiter.consume(client);
      return this.quota(result.remainingPoints, result.msBeforeNext, false);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      this.block(client, rejection.msBeforeNext);
      return this.quota(0, rejection.msBeforeNext, true);
    }
  }

  /** Remembers a refused client; forgets the ones whose window has ended once there are many (addresses of a wide attack). */
  private block(client: string, msBeforeReset: number): void {
    const now = Date.now();
    if (this.blockedUntil.size >= MAX_REMEMBERED_BLOCKS) {
      for (const [other, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(other);
    }
    this.blockedUntil.set(client, now + msBeforeReset);
  }

  private quota(remaining: number, msBeforeReset: number, exceeded: boolean): Quota {
    return { policy: this.name, limit: this.limit, remaining, resetSeconds: Math.ceil(Math.max(msBeforeReset, 0) / 1000), exceeded };
  }
}

/**
 * The service's rate limits: requests per API key, and failed authentications per client
 * address (so that guessing keys is slow). Counted in Redis when configured, so every
 * instance draws on one budget; should Redis fail, each instance counts in memory until it is back.
 */
@Injectable()
export class RateLimits implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(RateLimits.name);
  private readonly redis?: Redis;
  private readonly perKey: Policy;
  private readonly authFailures: Policy;

  constructor(options: RateLimitOptions) {
    if (options.redisUrl) {
      // No offline queue: while Redis is away a command fails at once and the memory fallback answers.
      this.redis = new Redis(options.redisUrl, {
        enableOfflineQueue: false,
        commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
        disconnectTimeout: REDIS_COMMAND_TIMEOUT_MS,
        lazyConnect: true,
      });
      this.watch(this.redis);
    }
    this.perKey = this.policy(RATE_LIMIT_POLICIES.perKey, options.perKeyPerMinute);
    this.authFailures = this.policy(RATE_LIMIT_POLICIES.authFailures, options.authFailuresPerMinute);
  }

  /** Counts one request of an authenticated key. */
  consumeRequest(keyId: string): Promise<Quota> {
    return this.perKey.consume(keyId);
  }

  /** Counts one failed authentication from a client address. */
  consumeAuthFailure(address: string): Promise<Quota> {
    return this.authFailures.consume(address);
  }

  /** The quota of an address that has used up its failed authentications, if it has. */
  authFailuresExhausted(address: string): Quota | undefined {
    return this.authFailures.blocked(address);
  }

  /** Waits a moment for Redis, so that the first requests already share the budget. */
  async onModuleInit(): Promise<void> {
    if (!this.redis) return;
    const connected = this.redis.connect().then(
      () => true,
      () => false,
    );
    const timedOut = new Promise<boolean>((resolve) => setTimeout(resolve, REDIS_CONNECT_WAIT_MS, false).unref());
    if (!(await Promise.race([connected, timedOut]))) this.logger.warn('Redis is not reachable: rate limits are counted per instance until it is');
  }

  async onApplicationShutdown(): Promise<void> {
    this.redis?.disconnect();
  }

  private policy(name: string, limit: number): Policy {
    const common = { keyPrefix: `petstore:rate-limit:${name}`, points: limit, duration: RATE_LIMIT_WINDOW_SECONDS };
    const memory = new RateLimiterMemory(common);
    const limiter = this.redis ? new RateLimiterRedis({ ...common, storeClient: this.redis, insuranceLimiter: memory }) : memory;
    return new Policy(name, limit, limiter);
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
