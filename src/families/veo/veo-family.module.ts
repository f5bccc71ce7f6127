import { Module } from '@nestjs/common';
import { UpstreamModule } from '../../upstream/upstream.module';
import { StagedImageInputs } from '../shared/staged-image-inputs.service';
import { VeoDrafts } from './veo-drafts.service';
import { VeoUpstreamAdapter } from './veo-upstream.adapter';

/** Veo's providers: its request schema, the image staging it shares with family A (its own instance), its adapter. */
@Module({
  imports: [UpstreamModule],
  providers: [StagedImageInputs, VeoDrafts, VeoUpstreamAdapter],
  exports: [VeoDrafts, VeoUpstreamAdapter],
})
export class VeoFamilyModule {}
