import { Global, Module } from '@nestjs/common';
import { MetricsRegistryModule } from '../metrics/metrics-registry';
import { RedisConnection } from './redis-connection.service';
import { SharedRateLimiters } from './shared-rate-limiters.service';
import { SpacedRateLimiter } from './spaced-rate-limiter.service';

/**
 * What several instances share through Redis (REDIS_URL), or keep per process without it: rate
 * limiters and the connection the API-key cache publishes its invalidations on.
 */
// Global: infrastructure like the database, used by auth, console and verification alike.
@Global()
@Module({
  imports: [MetricsRegistryModule],
  providers: [RedisConnection, SharedRateLimiters, SpacedRateLimiter],
  exports: [RedisConnection, SharedRateLimiters, SpacedRateLimiter],
})
export class SharedStateModule {}
