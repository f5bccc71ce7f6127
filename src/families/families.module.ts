import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { FAMILIES, FamilyRegistry, familyRegistration } from './family-registry';

const registration = familyRegistration(FAMILIES);

/** Every provider family's module, behind the one FamilyRegistry the rest of the gateway asks. */
@Module({
  imports: [BillingModule, UpstreamModule, ...registration.imports],
  providers: registration.providers,
  exports: [FamilyRegistry],
})
export class FamiliesModule {}
