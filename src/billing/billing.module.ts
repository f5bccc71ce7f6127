import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { GroupRatioEntity } from './group-ratio.entity';
import { KeyRefusalLog } from './key-refusal-log.service';
import { LedgerService } from './ledger.service';
import { LogEntity } from './log.entity';
import { LogRepository } from './log.repository';
import { LogTotalsService } from './log-totals.service';
import { LogsService } from './logs.service';
import { PriceRuleEntity } from './price-rule.entity';
import { PriceRepository } from './price.repository';
import { PricingService } from './pricing.service';

/** Prices, quotes, the ledger (charge, refund, top-up, adjust) and its logs. */
@Module({
  imports: [TypeOrmModule.forFeature([LogEntity, PriceRuleEntity, GroupRatioEntity]), AuthModule],
  providers: [LogRepository, PriceRepository, LedgerService, KeyRefusalLog, LogsService, LogTotalsService, PricingService],
  exports: [LedgerService, LogsService, LogTotalsService, PricingService],
})
export class BillingModule {}
