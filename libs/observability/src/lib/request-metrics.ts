import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram } from 'prom-client';

/**
 * Request durations by route template (never the raw URL: ids would make a series per resource),
 * method and status class: bounded label sets whatever clients send. Requests that match no
 * route are one "unmatched" series. Buckets span a cache hit (1 ms) to a database time-out (2.5 s).
 */
const requestDuration = new Histogram({
  name: 'petstore_http_request_duration_seconds',
  help: 'Time from the request to its answer, by route template, method and status class',
  labelNames: ['route', 'method', 'status_class'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
});

/** prom-client's process and runtime metrics, and the request-duration histogram. */
export function registerRequestMetrics(fastify: FastifyInstance): void {
  collectDefaultMetrics();
  fastify.addHook('onResponse', (request, reply, done) => {
    const labels = {
      route: request.routeOptions.url ?? 'unmatched',
      method: request.method,
      status_class: `${Math.floor(reply.statusCode / 100)}xx`,
    };
    requestDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}
