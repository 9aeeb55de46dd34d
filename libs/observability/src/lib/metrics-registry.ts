import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { ErrorAnswerCounter } from '@petstore/http-errors';
import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * A registry for one application, with Node's process and runtime metrics on it. Every metric of
 * the application is defined on it, none on prom-client's global registry: an application built
 * twice in one process has two sets of metrics, each served by its own /metrics.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** One application's metrics, for what serves them outside Nest (serveMetricsOnOwnPort). */
export interface AppMetrics {
  /** Every metric of the application: what /metrics serves. */
  readonly registry: Registry;
  /** The count of Error answers, which a refused scrape adds to. */
  readonly errorAnswers: ErrorAnswerCounter;
}

/**
 * Provides the application's registry to every module, under prom-client's own `Registry` class:
 * the libs that may not import this one (persistence, http-errors) inject it all the same.
 */
@Global()
@Module({})
export class MetricsRegistryModule {
  static of(registry: Registry): DynamicModule {
    return { module: MetricsRegistryModule, providers: [{ provide: Registry, useValue: registry }], exports: [Registry] };
  }
}
