import { Module } from '@nestjs/common';
import { UpstreamModule } from '../../upstream/upstream.module';
import { StagedImageInputs } from '../shared/staged-image-inputs.service';
import { UrlOrInlineImages } from '../shared/url-or-inline-images.service';
import { SeedanceDrafts } from './seedance-drafts.service';
import { SeedanceUpstreamAdapter } from './seedance-upstream.adapter';

/** Seedance's providers: its request schema (with its own image staging) and its upstream adapter. */
@Module({
  imports: [UpstreamModule],
  providers: [StagedImageInputs, UrlOrInlineImages, SeedanceDrafts, SeedanceUpstreamAdapter],
  exports: [SeedanceDrafts, SeedanceUpstreamAdapter],
})
export class SeedanceFamilyModule {}
