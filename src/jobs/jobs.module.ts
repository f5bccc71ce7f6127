import { Module } from '@nestjs/common';
import { MetricsRegistryModule } from '../metrics/metrics-registry';
import { JobMetrics } from './job-metrics.service';
import { JobContext } from './job-context';
import { JobRunner } from './job-runner.service';

/** The leased-job runner the background jobs register with. Needs ScheduleModule.forRoot() in the app. */
@Module({
  imports: [MetricsRegistryModule],
  providers: [JobMetrics, JobRunner, JobContext],
  exports: [JobRunner, JobContext],
})
export class JobsModule {}
