import { Module } from '@nestjs/common';
import { UpstreamModule } from '../../upstream/upstream.module';
import { KlingDrafts } from './kling-drafts.service';
import { KlingInputImages } from './kling-input-images.service';
import { KlingUpstreamAdapter } from './kling-upstream.adapter';

/** Kling's providers: its request schema (with the staged images) and its upstream adapter. */
@Module({
  imports: [UpstreamModule],
  providers: [KlingInputImages, KlingDrafts, KlingUpstreamAdapter],
  exports: [KlingDrafts, KlingUpstreamAdapter],
})
export class KlingFamilyModule {}
