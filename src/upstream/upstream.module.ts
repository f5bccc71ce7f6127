import { Module } from '@nestjs/common';
import { HttpModule } from '@nestjs/axios';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChannelRouter } from './channel-router.service';
import { ChannelEntity } from './channel.entity';
import { ChannelsService } from './channels.service';

/** Channels, routing, and the HTTP client the adapters share; the adapter contract. */
@Module({
  imports: [TypeOrmModule.forFeature([ChannelEntity]), HttpModule.register({ timeout: 30_000, maxRedirects: 0 })],
  providers: [ChannelsService, ChannelRouter],
  exports: [ChannelsService, ChannelRouter, HttpModule],
})
export class UpstreamModule {}
