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

/** Traces, request metrics and build info; registered first, so a request a later hook refuses is still traced and counted. */
export const observability = fastifyPlugin<ObservabilityOptions>(
  (fastify, { registry, buildInfo, requestTimeoutMs }, done) => {
    traceRoutes(fastify);
    registerRequestMetrics(fastify, registry, { requestTimeoutMs });
    registerBuildInfo(registry, buildInfo);
    done();
  },
  { name: 'petstore-observability', fastify: '5.x' },
);
