import { Module } from '@nestjs/common';
import { UpstreamModule } from '../../upstream/upstream.module';
import { GammaDrafts } from './gamma-drafts.service';
import { GammaUpstreamAdapter } from './gamma-upstream.adapter';

/**
 * Family C's data plane: its request schema and adapter (its control plane's client is in
 * control-plane/). Its drafts ask the verification module, through GAMMA_ASSET_CHECK (which that
 * global module provides), whether the referenced assets may be used.
 */
@Module({
  imports: [UpstreamModule],
  providers: [GammaDrafts, GammaUpstreamAdapter],
  exports: [GammaDrafts, GammaUpstreamAdapter],
})
export class GammaFamilyModule {}
