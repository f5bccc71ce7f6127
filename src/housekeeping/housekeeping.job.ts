import { Injectable } from '@nestjs/common';
import { JobContext } from '../jobs/job-context';
import { RegisteredJob } from '../jobs/registered-job';
import type { HousekeepingSweep } from './housekeeping-sweep';
import { HousekeepingStats } from './housekeeping-stats.service';
import { HousekeepingSweeps } from './housekeeping-sweeps';

/** Rows one delete takes at most: short statements, no long locks. */
export const SWEEP_BATCH = 500;
/** Batches one sweep runs per round at most; a larger backlog goes on next round. */
const MAX_BATCHES_PER_ROUND = 20;
const INTERVAL_MS = 60_000;

/** The sweeps a round has not taken yet. */
interface SweepRound {
  pending: HousekeepingSweep[];
}

/**
 * Housekeeping that always runs: each round asks every registered sweep (expired console sessions,
 * portrait uploads, idempotency keys, old webhook deliveries, old upstream call statistics) to
 * delete its expired rows, a batch at a time. Items need no database lease: each delete removes only
 * rows that are still expired, so two instances sweeping at once just share the work.
 */
@Injectable()
export class HousekeepingJob extends RegisteredJob<HousekeepingSweep, SweepRound> {
  constructor(
    private readonly sweeps: HousekeepingSweeps,
    private readonly stats: HousekeepingStats,
    context: JobContext,
  ) {
    super(context, { name: 'housekeeping', batchSize: 64, maxItemsPerRound: 64, concurrency: 1 });
  }

  /** Once a minute; off when the task sync is off (tests run rounds by hand). */
  get intervalMs(): number {
    return this.config.taskSyncIntervalMs > 0 ? INTERVAL_MS : 0;
  }

  /** One round by hand (tests): resolves with the number of sweeps run. */
  sweepNow(): Promise<number> {
    return this.loop.runRound();
  }

  openRound(): Promise<SweepRound> {
    return Promise.resolve({ pending: this.sweeps.all() });
  }

  claim(limit: number, round: SweepRound): Promise<HousekeepingSweep[]> {
    return Promise.resolve(round.pending.splice(0, limit));
  }

  async handle(sweep: HousekeepingSweep): Promise<string> {
    for (let batch = 0; batch < MAX_BATCHES_PER_ROUND; batch++) {
      const { rows, bytes } = await sweep.sweep(this.clock.now(), SWEEP_BATCH);
      this.stats.removed(sweep.table, rows, bytes);
      if (rows < SWEEP_BATCH) break;
    }
    return 'swept';
  }

  /** Nothing was taken in the database: a sweep not run is simply run next round. */
  handBack(): Promise<void> {
    return Promise.resolve();
  }

  describe(sweep: HousekeepingSweep): string {
    return `housekeeping of ${sweep.table}`;
  }
}
