import { Module } from '@nestjs/common';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';
import { RunwaySimulatorController } from './runway-simulator.controller';
import { RunwaySimulatorStore } from './runway-simulator.store';

/** The embedded simulator of Runway's API (mounted with SIMULATOR=on). */
@Module({
  imports: [SimulatorStateModule],
  controllers: [RunwaySimulatorController],
  providers: [RunwaySimulatorStore],
})
export class RunwaySimulatorModule {}
