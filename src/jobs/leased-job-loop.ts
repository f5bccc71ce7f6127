import { Logger } from '@nestjs/common';
import { backoffDelay } from './backoff';
import { JobMetrics } from './job-metrics.service';
import { KeyedWorkPool } from './keyed-work-pool';
import type { LeasedJob } from './leased-job';

type ItemCounter = { inc(): void };

/**
 * Runs the rounds of one {@link LeasedJob}: claims batch by batch while keeping about one batch
 * queued locally (the rest stays claimable by other instances), handles each item in a keyed
 * worker pool, isolates every item's failure, backs a failed item off, and on `stop()` claims no
 * more, lets items in flight finish and hands the queued rest back.
 */
export class LeasedJobLoop<Item, Round = void> {
  private running: Promise<number> | null = null;
  private stopping = false;
  private readonly itemCounters = new Map<string, ItemCounter>();
  private readonly logger: Pick<Logger, 'error' | 'warn'>;
  private readonly random: () => number;

  constructor(
    readonly job: LeasedJob<Item, Round>,
    private readonly metrics: JobMetrics,
    private readonly now: () => number,
    options: { logger?: Pick<Logger, 'error' | 'warn'>; random?: () => number } = {},
  ) {
    this.logger = options.logger ?? new Logger(`Job:${job.name}`);
    this.random = options.random ?? Math.random;
  }

  /** True once `stop()` was called: no round starts or claims any more. */
  get stopped(): boolean {
    return this.stopping;
  }

  /**
   * One round: claims due work batch by batch and handles each item on its own. Joins the round
   * already running instead of starting a second. Resolves with how many items were claimed;
   * rejects when claiming (or opening, closing the round) failed, after the claimed items are done.
   */
  runRound(): Promise<number> {
    if (!this.running) this.running = this.round().finally(() => (this.running = null));
    return this.running;
  }

  /** The scheduler's tick: skips while a round runs or after `stop()`; a failed round is already logged. */
  async tick(): Promise<void> {
    if (this.running || this.stopping) return;
    await this.runRound().catch(() => undefined);
  }

  /** Graceful shutdown: claim nothing more, let items in flight finish, hand the queued rest back. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.running?.catch(() => undefined);
  }

  private async round(): Promise<number> {
    const job = this.job;
    const stopTimer = this.metrics.roundDuration.startTimer({ job: job.name });
    let round = undefined as Round;
    let opened = false;
    let claimed = 0;
    let failure: { error: unknown } | undefined;
    const pool = new KeyedWorkPool(
      job.concurrency,
      job.limitFor ? (key) => job.limitFor!(key, round) : () => Infinity,
      // runItem catches everything; this is the last line of defence.
      (error) => this.logger.error(`${job.name}: item failed: ${describe(error)}`),
    );
    try {
      if (!this.stopping) {
        round = job.openRound ? await job.openRound() : round;
        opened = true;
      }
      while (opened && !this.stopping && claimed < job.maxItemsPerRound) {
        await pool.whenBelow(job.batchSize);
        if (this.stopping) break;
        const limit = Math.min(job.batchSize, job.maxItemsPerRound - claimed);
        const batch = await job.claim(limit, round).catch((error) => {
          this.metrics.errors.inc({ job: job.name, stage: 'claim' });
          throw error;
        });
        for (const item of batch) pool.push(job.keyOf ? job.keyOf(item) : 0, () => this.runItem(item, round));
        claimed += batch.length;
        if (batch.length < limit && !job.keepClaiming?.(round)) break;
      }
    } catch (error) {
      failure = { error };
    }
    // Whatever happened, the items already claimed are handled (or handed back) before the round ends.
    await pool.drain();
    if (opened && job.closeRound) {
      try {
        await job.closeRound(round);
      } catch (error) {
        failure ??= { error };
      }
    }
    stopTimer();
    if (failure) {
      this.metrics.rounds.inc({ job: job.name, outcome: 'failed' });
      this.metrics.errors.inc({ job: job.name, stage: 'round' });
      this.logger.error(`${job.name}: round failed after ${claimed} items: ${describe(failure.error)}`);
      throw failure.error;
    }
    this.metrics.rounds.inc({ job: job.name, outcome: 'ok' });
    return claimed;
  }

  private async runItem(item: Item, round: Round): Promise<void> {
    const job = this.job;
    if (this.stopping) {
      try {
        await job.handBack(item, round);
        this.count('handed_back');
      } catch (error) {
        this.metrics.errors.inc({ job: job.name, stage: 'hand_back' });
        this.logger.error(`${job.name}: handing back ${job.describe(item)} failed: ${describe(error)}`);
      }
      return;
    }
    try {
      this.count((await job.handle(item, round)) || 'done');
    } catch (error) {
      this.count('error');
      this.metrics.errors.inc({ job: job.name, stage: 'item' });
      await this.retryLater(item, round, error);
    }
  }

  /** Backs a failed item off (when the job declares how), so it is tried again later, not at once. */
  private async retryLater(item: Item, round: Round, error: unknown): Promise<void> {
    const { job } = this;
    const retry = job.retry;
    if (!retry) {
      this.logger.error(`${job.name}: ${job.describe(item)} failed (tried again once its lease runs out): ${describe(error)}`);
      return;
    }
    try {
      const failures = retry.failures(item) + 1;
      const delay = Math.max(retry.minDelayMs?.(error) ?? 0, backoffDelay(retry.intervalMs(item, round), failures, this.random));
      this.logger.warn(
        `${job.name}: ${job.describe(item)} failed (${failures} in a row, next try in ${delay} ms): ${(error as Error)?.message ?? error}`,
      );
      await retry.later(item, failures, this.now() + delay, round);
    } catch (retryError) {
      this.metrics.errors.inc({ job: job.name, stage: 'retry' });
      this.logger.error(
        `${job.name}: ${job.describe(item)} failed (${(error as Error)?.message ?? error}) and backing it off failed too (tried again once its lease runs out): ${describe(retryError)}`,
      );
    }
  }

  private count(outcome: string): void {
    let counter = this.itemCounters.get(outcome);
    if (!counter) {
      counter = this.metrics.items.labels({ job: this.job.name, outcome });
      this.itemCounters.set(outcome, counter);
    }
    counter.inc();
  }
}

function describe(error: unknown): string {
  return String((error as Error)?.stack ?? error);
}
