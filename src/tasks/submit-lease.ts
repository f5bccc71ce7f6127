import { performance } from 'node:perf_hooks';
import type { SubmitDeadline } from '../upstream/upstream-adapter';

/** Share of TASK_LEASE_MS a submit may spend upstream, across all channels: well under the lease. */
export const SUBMIT_DEADLINE_SHARE = 0.5;
/** Heartbeats per lease: a few missed beats still leave the lease alive. */
const BEATS_PER_LEASE = 6;

/**
 * What a running submit holds: a deadline for its upstream calls (real elapsed time, since it bounds
 * real HTTP timers) and its task's lease, pushed forward by a heartbeat while the submit runs.
 * When a beat finds the task no longer ours (the sync or another instance took it over), the
 * submit is `lost`: its upstream call is aborted and nothing it learns may be written.
 */
export class SubmitLease implements SubmitDeadline {
  private readonly controller = new AbortController();
  private readonly endsAt: number;
  private readonly timer: NodeJS.Timeout;
  private beat: Promise<void> | null = null;
  private stopped = false;
  lost = false;

  /**
   * @param extend pushes the lease forward; false when the task is no longer leased to this submit
   * @param onError a beat that failed (e.g. the database briefly unreachable); the next beat tries again
   */
  constructor(
    leaseMs: number,
    private readonly extend: () => Promise<boolean>,
    private readonly onError: (error: unknown) => void,
  ) {
    this.endsAt = performance.now() + Math.floor(leaseMs * SUBMIT_DEADLINE_SHARE);
    this.timer = setInterval(
      () => {
        if (!this.beat) this.beat = this.renew().finally(() => (this.beat = null));
      },
      Math.max(50, Math.floor(leaseMs / BEATS_PER_LEASE)),
    );
    this.timer.unref();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  remainingMs(): number {
    return this.lost ? 0 : this.endsAt - performance.now();
  }

  /** Ends the heartbeat; waits for a beat in flight so that no write follows the submit's own. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.beat;
  }

  private async renew(): Promise<void> {
    if (this.stopped || this.lost) return;
    try {
      if (await this.extend()) return;
      if (this.stopped) return;
      this.lost = true;
      clearInterval(this.timer);
      this.controller.abort();
    } catch (error) {
      this.onError(error);
    }
  }
}
