import { Counter } from 'prom-client';

/** Requests refused with 401, by reason: how often keys are missing, malformed or wrong. */
export const authFailuresCounter = new Counter({
  name: 'petstore_auth_failures_total',
  help: 'Requests refused for a missing, malformed or unknown API key',
  labelNames: ['reason'] as const,
});

/** Requests refused with 429, by the policy that refused them. */
export const rateLimitedCounter = new Counter({
  name: 'petstore_rate_limited_total',
  help: 'Requests refused for exceeding a rate limit',
  labelNames: ['policy'] as const,
});

/** Database lookups of issued keys by their prefix, cache misses only: what key checks cost the database. */
export const keyLookupsCounter = new Counter({
  name: 'petstore_api_key_lookups_total',
  help: 'Database lookups of API keys by prefix (cache misses)',
});
