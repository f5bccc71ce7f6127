import { Injectable } from '@nestjs/common';
import { HousekeepingSweeps } from '../housekeeping/housekeeping-sweeps';
import { UpstreamCallStatsRepository } from './upstream-call-stats.repository';

/** How far back the dashboard's upstream call statistics reach. */
export const CALL_STATS_RETENTION_MS = 90 * 86_400_000;

/** Upstream call statistics older than 90 days are deleted by housekeeping. */
@Injectable()
export class UpstreamHousekeeping {
  constructor(sweeps: HousekeepingSweeps, stats: UpstreamCallStatsRepository) {
    sweeps.register({
      table: 'upstream_call_stats',
      sweep: async (now, limit) => ({ rows: await stats.deleteBefore(now - CALL_STATS_RETENTION_MS, limit) }),
    });
  }
}
