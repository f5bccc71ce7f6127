import { Module } from '@nestjs/common';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';
import { VeoSimulatorController } from './veo-simulator.controller';
import { VeoSimulatorStore } from './veo-simulator.store';

/** The embedded simulator of Veo on the Gemini API (mounted with SIMULATOR=on). */
@Module({
  imports: [SimulatorStateModule],
  controllers: [VeoSimulatorController],
  providers: [VeoSimulatorStore],
})
export class VeoSimulatorModule {}
