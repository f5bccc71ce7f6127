import type { Clock } from '../common/runtime/clock';
import type { AppConfig } from '../config/app-config';
import type { JobContext } from './job-context';
import type { LeasedJob } from './leased-job';
import type { LeasedJobLoop } from './leased-job-loop';

/** How a leased job takes its work on: its name and the sizes of its claims, rounds and pool. */
export interface JobShape {
  name: string;
  batchSize: number;
  /** Items one round takes on at most; default ten batches. */
  maxItemsPerRound?: number;
  concurrency: number;
}

/** The least gap between a wake-up and the round it asks for: wake-ups in a burst share one round. */
const WAKE_GAP_MS = 100;

/**
 * The part every leased job shares: it declares its shape once, registers itself with the runner
 * (getting its loop back), names its claims' lease owners, and may be woken to run a round soon
 * instead of at the next tick. A subclass says what it claims and how it handles an item; it reads
 * the configuration and the clock from here.
 */
export abstract class RegisteredJob<Item, Round = void> implements LeasedJob<Item, Round> {
  readonly name: string;
  readonly batchSize: number;
  readonly maxItemsPerRound: number;
  readonly concurrency: number;
  /** Milliseconds between rounds; 0 turns the schedule off (tests run rounds by hand). */
  abstract readonly intervalMs: number;
  protected readonly loop: LeasedJobLoop<Item, Round>;
  protected readonly config: AppConfig;
  protected readonly clock: Clock;
  protected readonly instanceId: string;
  private claims = 0;
  private runSoonTimer: NodeJS.Timeout | null = null;

  protected constructor(context: JobContext, shape: JobShape) {
    this.config = context.config;
    this.clock = context.clock;
    this.instanceId = context.instanceId;
    this.name = shape.name;
    this.batchSize = shape.batchSize;
    this.maxItemsPerRound = shape.maxItemsPerRound ?? shape.batchSize * 10;
    this.concurrency = shape.concurrency;
    this.loop = context.runner.register(this);
  }

  abstract claim(limit: number, round: Round): Promise<Item[]>;
  abstract handle(item: Item, round: Round): Promise<string | void>;
  abstract handBack(item: Item, round: Round): Promise<void>;
  abstract describe(item: Item): string;

  /** A new lease owner for one claim: this instance, the job's `tag` and a counter, so no two claims share one. */
  protected claimOwner(tag: string): string {
    return `${this.instanceId}#${tag}${++this.claims}`;
  }

  /** Something became due here: run a round soon (coalesced; other instances find it at their next tick), when the schedule runs. */
  protected runSoon(): void {
    if (this.runSoonTimer || this.loop.stopped || this.intervalMs <= 0) return;
    this.runSoonTimer = setTimeout(() => {
      this.runSoonTimer = null;
      void this.loop.tick();
    }, WAKE_GAP_MS);
    this.runSoonTimer.unref();
  }
}
