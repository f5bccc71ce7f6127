import { Module } from '@nestjs/common';
import { BetaSimulatorController } from './beta-simulator.controller';
import { BetaSimulatorStore } from './beta-simulator.store';

/** The embedded simulator of the family beta upstream protocol (mounted with SIMULATOR=on). */
@Module({
  controllers: [BetaSimulatorController],
  providers: [BetaSimulatorStore],
})
export class BetaSimulatorModule {}
