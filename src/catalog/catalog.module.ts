import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BillingModule } from '../billing/billing.module';
import { CatalogModelEntity } from './catalog-model.entity';
import { CatalogRepository } from './catalog.repository';
import { CatalogService } from './catalog.service';

/** The model catalog's store: entries, their prices (through billing) and the merge and import rules. */
@Module({
  imports: [TypeOrmModule.forFeature([CatalogModelEntity]), BillingModule],
  providers: [CatalogRepository, CatalogService],
  exports: [CatalogService],
})
export class CatalogModule {}
