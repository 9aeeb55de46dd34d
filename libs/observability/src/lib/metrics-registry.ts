import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { ErrorAnswerCounter } from '@petstore/http-errors';
import { collectDefaultMetrics, Registry } from 'prom-client';

/** One application's registry, with Node's metrics; never prom-client's global one, so two apps in a process stay apart. */
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

/** Provides the registry under prom-client's `Registry` class, so libs that may not import this one still inject it. */
@Global()
@Module({})
export class MetricsRegistryModule {
  static of(registry: Registry): DynamicModule {
    return { module: MetricsRegistryModule, providers: [{ provide: Registry, useValue: registry }], exports: [Registry] };
  }
}
