import { Module } from '@nestjs/common';
import { UpstreamModule } from '../../upstream/upstream.module';
import { HostedImageInputs } from '../shared/hosted-image-inputs.service';
import { FalDrafts } from './fal-drafts.service';
import { FalUpstreamAdapter } from './fal-upstream.adapter';

/** fal's providers: its request schema (with the staged images) and its upstream adapter. */
@Module({
  imports: [UpstreamModule],
  providers: [HostedImageInputs, FalDrafts, FalUpstreamAdapter],
  exports: [FalDrafts, FalUpstreamAdapter],
})
export class FalFamilyModule {}
