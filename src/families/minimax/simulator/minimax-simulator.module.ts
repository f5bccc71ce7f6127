import { Module } from '@nestjs/common';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';
import { MinimaxSimulatorController } from './minimax-simulator.controller';
import { MinimaxSimulatorStore } from './minimax-simulator.store';

/** The embedded simulator of MiniMax's video API (mounted with SIMULATOR=on). */
@Module({
  imports: [SimulatorStateModule],
  controllers: [MinimaxSimulatorController],
  providers: [MinimaxSimulatorStore],
})
export class MinimaxSimulatorModule {}
