import { Module } from '@nestjs/common';
import { HttpModule } from '@nestjs/axios';
import { TypeOrmModule } from '@nestjs/typeorm';
import { HousekeepingModule } from '../housekeeping/housekeeping.module';
import { MetricsRegistryModule } from '../metrics/metrics-registry';
import { BreakerMetrics } from './breaker/breaker-metrics';
import { BreakerStates } from './breaker/breaker-states.service';
import { ChannelBreakers } from './breaker/channel-breakers.service';
import { ChannelRequestCounter } from './channel-request-counter.service';
import { ChannelRouter } from './channel-router.service';
import { ChannelSettingTraits } from './channel-setting-traits';
import { ChannelEntity } from './channel.entity';
import { ChannelRepository } from './channel.repository';
import { ChannelSecretBox } from './channel-secret-box';
import { ChannelSecretsReseal } from './channel-secrets-reseal';
import { ChannelUrlCheck } from './channel-url-check';
import { ChannelsService } from './channels.service';
import { ProviderCalls } from './provider-calls';
import { UpstreamCallRecorder } from './upstream-call-recorder.service';
import { UpstreamCallStatsQueries } from './upstream-call-stats-queries.service';
import { UpstreamCallStatsEntity } from './upstream-call-stats.entity';
import { UpstreamCallStatsRepository } from './upstream-call-stats.repository';
import { UpstreamHousekeeping } from './upstream-housekeeping';

/** Channels, routing (around open breakers), the HTTP client the adapters share, the adapter contract, and the shared upstream call statistics. */
@Module({
  imports: [
    TypeOrmModule.forFeature([ChannelEntity, UpstreamCallStatsEntity]),
    HttpModule.register({ timeout: 30_000, maxRedirects: 0 }),
    HousekeepingModule,
    MetricsRegistryModule,
  ],
  providers: [
    ChannelRepository,
    UpstreamCallStatsRepository,
    ChannelSettingTraits,
    ChannelSecretBox,
    ChannelSecretsReseal,
    ChannelUrlCheck,
    ChannelsService,
    ChannelRouter,
    ChannelRequestCounter,
    UpstreamCallRecorder,
    UpstreamCallStatsQueries,
    UpstreamHousekeeping,
    BreakerStates,
    ChannelBreakers,
    BreakerMetrics,
    ProviderCalls,
  ],
  exports: [
    ProviderCalls,
    ChannelBreakers,
    ChannelsService,
    ChannelRouter,
    ChannelSettingTraits,
    HttpModule,
    UpstreamCallRecorder,
    UpstreamCallStatsQueries,
    TypeOrmModule,
  ],
})
export class UpstreamModule {}
