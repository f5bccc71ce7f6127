import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { DatabaseWritesIndicator } from './database-writes.indicator';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly writes: DatabaseWritesIndicator,
  ) {}

  @Get()
  @HealthCheck()
  @ApiOperation({ summary: '200 when the database answers and writes commit, 503 otherwise' })
  check() {
    return this.health.check([() => this.database.pingCheck('database', { timeout: 2000 }), () => this.writes.check('database_writes')]);
  }
}
