import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { MetricsRegistryModule } from '../metrics/metrics-registry';
import { HousekeepingStats } from './housekeeping-stats.service';
import { HousekeepingSweeps } from './housekeeping-sweeps';
import { HousekeepingJob } from './housekeeping.job';

/**
 * Housekeeping: the registry the owning modules add their sweeps of expired rows to, the job that
 * runs them, and the counts of what was removed (metrics, dashboard). It reads no table itself.
 */
@Module({
  imports: [JobsModule, MetricsRegistryModule],
  providers: [HousekeepingSweeps, HousekeepingStats, HousekeepingJob],
  exports: [HousekeepingSweeps, HousekeepingStats, HousekeepingJob],
})
export class HousekeepingModule {}
