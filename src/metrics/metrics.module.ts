import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { TaskMetrics } from './task-metrics.service';

@Global()
@Module({ providers: [TaskMetrics], exports: [TaskMetrics], controllers: [MetricsController] })
export class MetricsModule {}
