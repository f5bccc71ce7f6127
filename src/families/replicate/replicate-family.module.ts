import { Module } from '@nestjs/common';
import { UpstreamModule } from '../../upstream/upstream.module';
import { HostedImageInputs } from '../shared/hosted-image-inputs.service';
import { ReplicateDrafts } from './replicate-drafts.service';
import { ReplicateUpstreamAdapter } from './replicate-upstream.adapter';

/** Replicate's providers: its request schema (with the staged images) and its upstream adapter. */
@Module({
  imports: [UpstreamModule],
  providers: [HostedImageInputs, ReplicateDrafts, ReplicateUpstreamAdapter],
  exports: [ReplicateDrafts, ReplicateUpstreamAdapter],
})
export class ReplicateFamilyModule {}
