import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { MetricsRegistryModule } from './metrics-registry';

/** Prometheus metrics at /metrics: whatever the modules keep in the app's registry (tasks, jobs). */
@Module({ imports: [MetricsRegistryModule], controllers: [MetricsController] })
export class MetricsModule {}
