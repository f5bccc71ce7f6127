import { Module } from '@nestjs/common';
import { UpstreamModule } from '../../upstream/upstream.module';
import { StagedImageInputs } from '../shared/staged-image-inputs.service';
import { UrlOrInlineImages } from '../shared/url-or-inline-images.service';
import { XaiDrafts } from './xai-drafts.service';
import { XaiUpstreamAdapter } from './xai-upstream.adapter';

/** xAI's providers: its request schema (with its own image staging) and its upstream adapter. */
@Module({
  imports: [UpstreamModule],
  providers: [StagedImageInputs, UrlOrInlineImages, XaiDrafts, XaiUpstreamAdapter],
  exports: [XaiDrafts, XaiUpstreamAdapter],
})
export class XaiFamilyModule {}
