import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { RedisConnection } from '../shared-state/redis-connection.service';

/**
 * Redis is not needed to serve: while it is down the gateway runs on in-process limits. So this
 * check never fails the health check; its details say whether state is shared right now.
 */
@Injectable()
export class RedisIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    private readonly redis: RedisConnection,
  ) {}

  get configured(): boolean {
    return this.redis.configured;
  }

  check(key: string) {
    const indicator = this.health.check(key);
    return this.redis.isUp
      ? indicator.up({ connected: true, shared: true })
      : indicator.up({
          connected: false,
          shared: false,
          message: 'Redis is unavailable: rate limits and the sign-in throttle are per process, cached API keys live 2 s',
        });
  }
}
