import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { FamilyRegistry } from './family-registry.service';
import { FAMILIES } from './family.registry';

/** Every provider family's module, behind the one FamilyRegistry the rest of the gateway asks. */
@Module({
  imports: [BillingModule, UpstreamModule, ...FAMILIES.map((family) => family.module)],
  providers: [FamilyRegistry],
  exports: [FamilyRegistry],
})
export class FamiliesModule {}
