export * from './lib/access-log';
export * from './lib/build-info';
export * from './lib/health.controller';
export * from './lib/metrics.controller';
export * from './lib/metrics-registry';
export * from './lib/pino-nest.logger';
export * from './lib/request-metrics';
export { stopTracing, traceRoutes, TRACING_HELP } from './lib/tracing';
export * from './lib/observability.plugin';
