import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module';
import { CatalogModule } from '../catalog/catalog.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { FAMILIES, FamilyRegistry, familyRegistration } from './family-registry';
import { ModelCatalog } from './model-catalog.service';

const registration = familyRegistration(FAMILIES);

/** Every provider family's module, behind the one FamilyRegistry the rest of the gateway asks. */
@Module({
  imports: [BillingModule, CatalogModule, UpstreamModule, ...registration.imports],
  providers: registration.providers,
  exports: [FamilyRegistry, ModelCatalog, CatalogModule],
})
export class FamiliesModule {}
