import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from '../metrics/metrics-registry';

/** `gateway_webhook_deliveries_total{outcome}`: delivery attempts by outcome, and events written by type. */
@Injectable()
export class WebhookMetrics {
  readonly deliveries: Counter<'outcome'>;
  readonly events: Counter<'type'>;

  constructor(registry: MetricsRegistry) {
    this.deliveries = registry.counter(
      'gateway_webhook_deliveries_total',
      'Webhook delivery attempts by outcome (delivered, http_error, timeout, network_error, refused, cancelled)',
      ['outcome'],
    );
    this.events = registry.counter('gateway_webhook_events_total', 'Webhook events written (with at least one endpoint to tell), by type', [
      'type',
    ]);
  }
}
