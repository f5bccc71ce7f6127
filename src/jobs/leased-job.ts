/**
 * A background job the {@link JobRunner} runs: it says how to claim due work in the database with a
 * lease, how to handle one item, and how to give an item back; the runner does the rest
 * (scheduling, the worker pool, error isolation, back-off, graceful shutdown, metrics).
 *
 * `Round` is what one round shares between its items (a channel list, a write buffer); jobs that
 * need nothing leave it `void`.
 */
export interface LeasedJob<Item, Round = void> {
  /** Its name in logs, in the scheduler and in the metrics' `job` label: kebab-case, stable. */
  readonly name: string;
  /** Milliseconds between rounds; 0 turns the schedule off (tests run rounds by hand). */
  readonly intervalMs: number;
  /** Items one claim takes at most. A shorter batch means nothing more is due: the round ends. */
  readonly batchSize: number;
  /** Items one round takes on at most, so a round ends and the next sees fresh due times. */
  readonly maxItemsPerRound: number;
  /** Items handled at once on this instance. */
  readonly concurrency: number;

  /**
   * Claims up to `limit` due items for this instance with a lease in the database (a conditional
   * UPDATE, so any number of instances can run the job). An item whose lease runs out is due again.
   */
  claim(limit: number, round: Round): Promise<Item[]>;

  /**
   * Handles one claimed item and frees its lease. Resolves with an outcome label for the metrics
   * (a small fixed set, e.g. `polled`, `failed`; default `done`). A throw is the runner's to
   * handle: logged, counted, and with `retry` declared, the item is released for a later try.
   */
  handle(item: Item, round: Round): Promise<string | void>;

  /** Shutting down: gives a claimed item not yet handled back to the database, due at once. */
  handBack(item: Item, round: Round): Promise<void>;

  /** Names the item in logs. */
  describe(item: Item): string;

  /** Per-key in-flight limits (e.g. per upstream channel): the item's key... */
  keyOf?(item: Item): number;
  /** ...and that key's limit in this round. Without them, only `concurrency` bounds the pool. */
  limitFor?(key: number, round: Round): number;

  /**
   * Asked after a short batch: true keeps the round claiming instead of ending it once its items are
   * done, for jobs whose claim waits for work itself while slow items are in flight (webhook
   * deliveries), so a slow item never holds up items that become due meanwhile.
   */
  keepClaiming?(round: Round): boolean;

  /** Prepares what a round's items share; called before the first claim of each round. */
  openRound?(): Promise<Round>;
  /** Ends a round (flushes buffered writes); runs after the last item, also when the round failed. */
  closeRound?(round: Round): Promise<void>;

  /** Back-off when `handle` throws; without it a failed item waits for its lease to run out. */
  readonly retry?: RetryPolicy<Item, Round>;

  /** The oldest due time of unclaimed work (epoch ms), or null: the `gateway_job_lag_seconds` gauge. */
  oldestDueAt?(now: number): Promise<number | null>;
}

/**
 * Exponential back-off with full jitter ({@link backoffDelay}) from the item's own interval and its
 * failures in a row, never sooner than the error asks (`Retry-After`).
 */
export interface RetryPolicy<Item, Round = void> {
  /** The item's normal interval, the back-off's base. */
  intervalMs(item: Item, round: Round): number;
  /** Failures in a row before this one (kept in the database by `later`). */
  failures(item: Item): number;
  /** The least delay the error asks for, in ms (0 when it says nothing). */
  minDelayMs?(error: unknown): number;
  /** Frees the lease, stores `failures` and makes the item due again at `dueAt`. */
  later(item: Item, failures: number, dueAt: number, round: Round): Promise<void>;
}
