import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseWritesIndicator } from './database-writes.indicator';
import { HealthController } from './health.controller';
import { RedisIndicator } from './redis.indicator';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [DatabaseWritesIndicator, RedisIndicator],
})
export class HealthModule {}
