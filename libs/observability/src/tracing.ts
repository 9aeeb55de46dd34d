// For main.ts to start the SDK before anything else of this lib (Nest, pino, prom-client) is loaded.
export { startTracing } from './lib/tracing';
