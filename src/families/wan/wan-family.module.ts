import { Module } from '@nestjs/common';
import { UpstreamModule } from '../../upstream/upstream.module';
import { HostedImageInputs } from '../shared/hosted-image-inputs.service';
import { WanDrafts } from './wan-drafts.service';
import { WanUpstreamAdapter } from './wan-upstream.adapter';

/** Wan's providers: its request schema (with its inline frames) and its upstream adapter. */
@Module({
  imports: [UpstreamModule],
  providers: [HostedImageInputs, WanDrafts, WanUpstreamAdapter],
  exports: [WanDrafts, WanUpstreamAdapter],
})
export class WanFamilyModule {}
