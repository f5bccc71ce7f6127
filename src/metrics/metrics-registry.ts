import { Injectable, Module } from '@nestjs/common';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The app's Prometheus registry, which every module's metrics join and /metrics serves. One per
 * app instance (tests boot several apps in one process; the global registry would clash).
 */
@Injectable()
export class MetricsRegistry extends Registry {
  constructor() {
    super();
    collectDefaultMetrics({ register: this });
  }

  /** A counter in this registry. */
  counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this] });
  }

  /** A histogram in this registry, with its buckets (seconds). */
  histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets, registers: [this] });
  }
}

/** Provides the one {@link MetricsRegistry}; modules that keep metrics import it. */
@Module({ providers: [MetricsRegistry], exports: [MetricsRegistry] })
export class MetricsRegistryModule {}
