import { Injectable } from '@nestjs/common';
import { ProviderPushMetrics, type ProviderReadReason } from '../../metrics/provider-push-metrics';

/** How long a wake-up waits for its read before it is forgotten (the read came on another instance, or never). */
const FORGET_AFTER_MS = 120_000;

/**
 * Counts the reads a task in flight costs at its provider (`gateway_provider_reads_total`), each by
 * why it was made. A read of a task a callback woke on this instance counts as the callback's.
 */
@Injectable()
export class ProviderReads {
  private readonly woken = new Map<number, number>();

  constructor(private readonly metrics: ProviderPushMetrics) {}

  /** A callback made the task due: its next read here is the callback's. */
  wokenByCallback(taskRowId: number, now: number): void {
    if (this.woken.size > 10_000) for (const [id, at] of this.woken) if (at < now - FORGET_AFTER_MS) this.woken.delete(id);
    this.woken.set(taskRowId, now);
  }

  /** The sync reads the task: for the callback that woke it, else as its poll. */
  polled(task: { id: number; platform: string }): void {
    this.metrics.read(task.platform, this.woken.delete(task.id) ? 'callback' : 'poll');
  }

  counted(platform: string, reason: Exclude<ProviderReadReason, 'poll' | 'callback'>): void {
    this.metrics.read(platform, reason);
  }
}
