import { Module } from '@nestjs/common';
import { VerificationModule } from '../verification/verification.module';
import { BetaMediaCheckService } from '../families/beta/beta-media-check.service';
import { BetaSubmitService } from '../families/beta/beta-drafts.service';
import { GenerationSubmitService } from './generation-submit.service';
import { GenerationsController } from './generations.controller';

/** /v1/video/generations: the unified form; family B (and family C via VerificationModule). */
@Module({
  imports: [VerificationModule],
  controllers: [GenerationsController],
  providers: [BetaSubmitService, BetaMediaCheckService, GenerationSubmitService],
  exports: [BetaSubmitService],
})
export class GenerationsModule {}
