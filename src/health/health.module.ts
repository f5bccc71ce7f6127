import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseWritesIndicator } from './database-writes.indicator';
import { HealthController } from './health.controller';

@Module({ imports: [TerminusModule.forRoot({ logger: false })], controllers: [HealthController], providers: [DatabaseWritesIndicator] })
export class HealthModule {}
