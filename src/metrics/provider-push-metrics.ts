import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from './metrics-registry';

/** How a provider's callback was taken: `accepted` (its task read now) or why not. */
export type CallbackResult = 'accepted' | 'bad_token' | 'bad_signature' | 'rate_limited' | 'unknown_task';
/** Why a task in flight was read at its provider. */
export type ProviderReadReason = 'poll' | 'callback' | 'deadline' | 'cancel';

const CALLBACKS_HELP = "Providers' callbacks by platform and result (accepted, bad_token, bad_signature, rate_limited, unknown_task)";
const READS_HELP = 'Reads of tasks in flight at their provider by platform and reason (poll, callback, deadline, cancel)';

/** Providers that push: the callbacks they send, and the reads a task in flight costs (by why it was read). */
@Injectable()
export class ProviderPushMetrics {
  readonly callbacks: Counter<'platform' | 'result'>;
  readonly reads: Counter<'platform' | 'reason'>;

  constructor(registry: MetricsRegistry) {
    this.callbacks = registry.counter('gateway_provider_callbacks_total', CALLBACKS_HELP, ['platform', 'result']);
    this.reads = registry.counter('gateway_provider_reads_total', READS_HELP, ['platform', 'reason']);
  }

  callback(platform: string, result: CallbackResult): void {
    this.callbacks.inc({ platform, result });
  }

  read(platform: string, reason: ProviderReadReason): void {
    this.reads.inc({ platform, reason });
  }
}
