import { Injectable } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';

/** Authentication's metrics, on the application's registry. */
@Injectable()
export class AuthMetrics {
  /** Requests refused with 401, by reason: how often keys are missing, malformed or wrong. */
  readonly authFailures: Counter<'reason'>;
  /** Requests refused with 429, by the policy that refused them. */
  readonly rateLimited: Counter<'policy'>;
  /** Database lookups of issued keys by their prefix, cache misses only: what key checks cost the database. */
  readonly keyLookups: Counter;

  constructor(registry: Registry) {
    this.authFailures = new Counter({
      name: 'petstore_auth_failures_total',
      help: 'Requests refused for a missing, malformed or unknown API key',
      labelNames: ['reason'] as const,
      registers: [registry],
    });
    this.rateLimited = new Counter({
      name: 'petstore_rate_limited_total',
      help: 'Requests refused for exceeding a rate limit',
      labelNames: ['policy'] as const,
      registers: [registry],
    });
    this.keyLookups = new Counter({
      name: 'petstore_api_key_lookups_total',
      help: 'Database lookups of API keys by prefix (cache misses)',
      registers: [registry],
    });
  }
}
