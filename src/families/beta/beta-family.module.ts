import { Module } from '@nestjs/common';
import { UpstreamModule } from '../../upstream/upstream.module';
import { BetaDrafts } from './beta-drafts.service';
import { BetaMediaCheckService } from './beta-media-check.service';
import { BetaUpstreamAdapter } from './beta-upstream.adapter';

/** Family B's providers: its request schema (with the media pre-check) and its upstream adapter. */
@Module({
  imports: [UpstreamModule],
  providers: [BetaMediaCheckService, BetaDrafts, BetaUpstreamAdapter],
  exports: [BetaDrafts, BetaUpstreamAdapter],
})
export class BetaFamilyModule {}
