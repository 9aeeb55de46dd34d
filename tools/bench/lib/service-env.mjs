// How every bench starts the built service: one definition, so that the benches measure the same service.

/** The per-key limit: the limiter runs (its cost is part of the measure) but never refuses the load. */
export const BENCH_RATE_LIMIT_PER_MINUTE = 999_999_999;

/**
 * The service's environment in a bench: production, logs at warn, one API key, the limit above, and
 * no drain on SIGTERM: no load balancer reads /readyz here, so a drain would only hold up each stop.
 */
export function benchServiceEnv(apiKey) {
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    API_KEYS: apiKey,
    RATE_LIMIT_PER_MINUTE: String(BENCH_RATE_LIMIT_PER_MINUTE),
    SHUTDOWN_DRAIN_MS: '0',
  };
}
