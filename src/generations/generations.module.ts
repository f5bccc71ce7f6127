import { Module } from '@nestjs/common';
import { VerificationModule } from '../verification/verification.module';
import { BetaSubmitService } from './beta-submit.service';

/** /v1/video/generations: the unified form; family B (and family C via VerificationModule). */
@Module({
  imports: [VerificationModule],
  providers: [BetaSubmitService],
  exports: [BetaSubmitService],
})
export class GenerationsModule {}
