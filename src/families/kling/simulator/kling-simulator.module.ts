import { Module } from '@nestjs/common';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';
import { KlingSimulatorController } from './kling-simulator.controller';
import { KlingSimulatorStore } from './kling-simulator.store';

/** The embedded simulator of Kling's video API (mounted with SIMULATOR=on). */
@Module({
  imports: [SimulatorStateModule],
  controllers: [KlingSimulatorController],
  providers: [KlingSimulatorStore],
})
export class KlingSimulatorModule {}
