import { Module } from '@nestjs/common';
import { UpstreamModule } from '../../upstream/upstream.module';
import { RunwayDrafts } from './runway-drafts.service';
import { RunwayInputImages } from './runway-input-images.service';
import { RunwayUpstreamAdapter } from './runway-upstream.adapter';

/** Runway's providers: its request schema (with the staged frames) and its upstream adapter. */
@Module({
  imports: [UpstreamModule],
  providers: [RunwayInputImages, RunwayDrafts, RunwayUpstreamAdapter],
  exports: [RunwayDrafts, RunwayUpstreamAdapter],
})
export class RunwayFamilyModule {}
