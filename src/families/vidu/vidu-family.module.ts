import { Module } from '@nestjs/common';
import { UpstreamModule } from '../../upstream/upstream.module';
import { StagedImageInputs } from '../shared/staged-image-inputs.service';
import { UrlOrInlineImages } from '../shared/url-or-inline-images.service';
import { ViduDrafts } from './vidu-drafts.service';
import { ViduUpstreamAdapter } from './vidu-upstream.adapter';

/** Vidu's providers: its request schema (with its own image staging) and its upstream adapter. */
@Module({
  imports: [UpstreamModule],
  providers: [StagedImageInputs, UrlOrInlineImages, ViduDrafts, ViduUpstreamAdapter],
  exports: [ViduDrafts, ViduUpstreamAdapter],
})
export class ViduFamilyModule {}
