import fastifyPlugin from 'fastify-plugin';
import type { Registry } from 'prom-client';
import { type BuildInfo, registerBuildInfo } from './build-info';
import { registerRequestMetrics, type RequestMetricsOptions } from './request-metrics';
import { traceRoutes } from './tracing';

export interface ObservabilityOptions extends RequestMetricsOptions {
  /** The application's own registry: every metric is defined on it. */
  readonly registry: Registry;
  readonly buildInfo: BuildInfo;
}

/**
 * Traces and request metrics for every route registered after it, and the build's info metric.
 * The first plugin: its hooks run before any other's, so that a request a later hook refuses is
 * named in its trace and counted too. Other plugins that must come after it depend on its name.
 */
export const observability = fastifyPlugin<ObservabilityOptions>(
  (fastify, { registry, buildInfo, requestTimeoutMs }, done) => {
    traceRoutes(fastify);
    registerRequestMetrics(fastify, registry, { requestTimeoutMs });
    registerBuildInfo(registry, buildInfo);
    done();
  },
  { name: 'petstore-observability', fastify: '5.x' },
);
