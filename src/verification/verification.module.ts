import { Module } from '@nestjs/common';
import { GammaSubmitService } from './gamma-submit.service';

/** Real-person verification: sessions, callback, groups, assets; and family C submits. */
@Module({
  providers: [GammaSubmitService],
  exports: [GammaSubmitService],
})
export class VerificationModule {}
