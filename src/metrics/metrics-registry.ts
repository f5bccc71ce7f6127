import { Injectable, Module } from '@nestjs/common';
import { Registry, collectDefaultMetrics } from 'prom-client';

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
}

/** Provides the one {@link MetricsRegistry}; modules that keep metrics import it. */
@Module({ providers: [MetricsRegistry], exports: [MetricsRegistry] })
export class MetricsRegistryModule {}
