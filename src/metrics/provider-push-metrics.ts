import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from './metrics-registry';

/** How a provider's callback was taken: `accepted` (its task read now) or why not. */
export type CallbackResult = 'accepted' | 'bad_token' | 'bad_signature' | 'rate_limited' | 'unknown_task';
/** Why a task in flight was read at its provider. */
export type ProviderReadReason = 'poll' | 'callback' | 'deadline' | 'cancel';

/** Providers that push: the callbacks they send, and the reads a task in flight costs (by why it was read). */
@Injectable()
export class ProviderPushMetrics {
  readonly callbacks: Counter<'platform' | 'result'>;
  readonly reads: Counter<'platform' | 'reason'>;

  constructor(registry: MetricsRegistry) {
    this.callbacks = new Counter({
      name: 'gateway_provider_callbacks_total',
      help: "Providers' callbacks by platform and result (accepted, bad_token, bad_signature, rate_limited, unknown_task)",
      labelNames: ['platform', 'result'] as const,
      registers: [registry],
    });
    this.reads = new Counter({
      name: 'gateway_provider_reads_total',
      help: 'Reads of tasks in flight at their provider by platform and reason (poll, callback, deadline, cancel)',
      labelNames: ['platform', 'reason'] as const,
      registers: [registry],
    });
  }

  callback(platform: string, result: CallbackResult): void {
    this.callbacks.inc({ platform, result });
  }

  read(platform: string, reason: ProviderReadReason): void {
    this.reads.inc({ platform, reason });
  }
}
