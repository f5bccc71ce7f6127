import { Module } from '@nestjs/common';
import { UpstreamModule } from '../../upstream/upstream.module';
import { AlphaApiClient } from './alpha-api.client';
import { AlphaDrafts } from './alpha-drafts.service';
import { StagedImageInputs } from '../shared/staged-image-inputs.service';
import { AlphaUpstreamAdapter } from './alpha-upstream.adapter';

/** Family A's providers: its request schema (with image staging) and its upstream adapter. */
@Module({
  imports: [UpstreamModule],
  providers: [AlphaApiClient, StagedImageInputs, AlphaDrafts, AlphaUpstreamAdapter],
  exports: [AlphaDrafts, AlphaUpstreamAdapter],
})
export class AlphaFamilyModule {}
