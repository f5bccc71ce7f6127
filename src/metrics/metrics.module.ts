import { Module } from '@nestjs/common';
import { TasksModule } from '../tasks/tasks.module';
import { MetricsController } from './metrics.controller';

/** Prometheus metrics at /metrics: the task counters and gauges TasksModule keeps. */
@Module({ imports: [TasksModule], controllers: [MetricsController] })
export class MetricsModule {}
