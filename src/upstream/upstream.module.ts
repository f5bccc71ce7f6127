import { Global, Module } from '@nestjs/common';
import { HttpModule } from '@nestjs/axios';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChannelRouter } from './channel-router.service';
import { ChannelEntity } from './channel.entity';
import { ChannelsService } from './channels.service';
import { UpstreamAdapterRegistry } from './upstream-adapter.registry';

/** Channels, routing, and the registry of per-family adapters. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ChannelEntity]), HttpModule.register({ timeout: 30_000, maxRedirects: 0 })],
  providers: [ChannelsService, ChannelRouter, UpstreamAdapterRegistry],
  exports: [ChannelsService, ChannelRouter, UpstreamAdapterRegistry, HttpModule],
})
export class UpstreamModule {}
