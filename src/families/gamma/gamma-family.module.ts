import { Module } from '@nestjs/common';
import { UpstreamModule } from '../../upstream/upstream.module';
import { VerificationModule } from '../../verification/verification.module';
import { GammaDrafts } from './gamma-drafts.service';
import { GammaUpstreamAdapter } from './gamma-upstream.adapter';

/**
 * Family C's data plane: its request schema and adapter. Its drafts ask the verification module
 * (family C's control plane) whether the referenced assets may be used; never the other way round.
 */
@Module({
  imports: [UpstreamModule, VerificationModule],
  providers: [GammaDrafts, GammaUpstreamAdapter],
  exports: [GammaDrafts, GammaUpstreamAdapter],
})
export class GammaFamilyModule {}
