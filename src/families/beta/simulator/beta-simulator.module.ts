import { Module } from '@nestjs/common';
import { BetaSimulatorController } from './beta-simulator.controller';
import { BetaSimulatorStore } from './beta-simulator.store';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';

/** The embedded simulator of the family beta upstream protocol (mounted with SIMULATOR=on). */
@Module({
  imports: [SimulatorStateModule],
  controllers: [BetaSimulatorController],
  providers: [BetaSimulatorStore],
})
export class BetaSimulatorModule {}
