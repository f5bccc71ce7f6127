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
import { RedemptionCodeEntity } from './redemption/redemption-code.entity';
import { RedemptionCodeRepository } from './redemption/redemption-code.repository';
import { RedemptionCodesService } from './redemption/redemption-codes.service';

/** Prices, quotes, the ledger (charge, refund, top-up, adjust) and its logs, and redemption codes (money in). */
@Module({
  imports: [TypeOrmModule.forFeature([LogEntity, PriceRuleEntity, GroupRatioEntity, RedemptionCodeEntity]), AuthModule],
  providers: [
    LogRepository,
    PriceRepository,
    RedemptionCodeRepository,
    LedgerService,
    KeyRefusalLog,
    LogsService,
    LogTotalsService,
    PricingService,
    RedemptionCodesService,
  ],
  exports: [LedgerService, LogsService, LogTotalsService, PricingService, RedemptionCodesService],
})
export class BillingModule {}
