import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { DatabaseWritesIndicator } from './database-writes.indicator';
import { RedisIndicator } from './redis.indicator';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly writes: DatabaseWritesIndicator,
    private readonly redis: RedisIndicator,
  ) {}

  @Get()
  @HealthCheck()
  @ApiOperation({
    summary:
      '200 when the database answers and writes commit, 503 otherwise; with REDIS_URL, `redis` tells whether limits are shared right now',
  })
  check() {
    const checks = [() => this.database.pingCheck('database', { timeout: 2000 }), () => this.writes.check('database_writes')];
    // Never a reason for a 503: without Redis the gateway serves on in-process limits.
    if (this.redis.configured) checks.push(() => Promise.resolve(this.redis.check('redis')));
    return this.health.check(checks);
  }
}
