import { Module } from '@nestjs/common';
import { UpstreamModule } from '../../upstream/upstream.module';
import { AlphaImageInputs } from '../alpha/alpha-image-inputs.service';
import { VeoDrafts } from './veo-drafts.service';
import { VeoUpstreamAdapter } from './veo-upstream.adapter';

/** Veo's providers: its request schema, the image staging it shares with family A (its own instance), its adapter. */
@Module({
  imports: [UpstreamModule],
  providers: [AlphaImageInputs, VeoDrafts, VeoUpstreamAdapter],
  exports: [VeoDrafts, VeoUpstreamAdapter],
})
export class VeoFamilyModule {}
