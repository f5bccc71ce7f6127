import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { MetricsRegistry } from '../../metrics/metrics-registry';
import { ChannelRepository } from '../channel.repository';
import type { BreakerPhase } from './breaker-state';
import { ChannelBreakers } from './channel-breakers.service';

const STATE_VALUE: Record<BreakerPhase, number> = { closed: 0, half_open: 1, open: 2 };

/** `gateway_channel_breaker_state{channel}`: every channel's breaker as this instance knows it when scraped. */
@Injectable()
export class BreakerMetrics {
  constructor(registry: MetricsRegistry, channels: ChannelRepository, breakers: ChannelBreakers) {
    new Gauge({
      name: 'gateway_channel_breaker_state',
      help: "A channel's breaker: 0 closed, 1 half-open (one submit at a time tries it), 2 open (no submits until its cool-down ends)",
      labelNames: ['channel'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const id of await channels.ids()) this.set({ channel: String(id) }, STATE_VALUE[breakers.phase(id)]);
      },
    });
  }
}
