import { Module } from '@nestjs/common';
import { AlphaSimulatorController } from './alpha-simulator.controller';
import { AlphaSimulatorService } from './alpha-simulator.service';

/** The embedded simulator of the family alpha upstream protocol (mounted with SIMULATOR=on). */
@Module({
  controllers: [AlphaSimulatorController],
  providers: [AlphaSimulatorService],
})
export class AlphaSimulatorModule {}
