import { Module } from '@nestjs/common';
import { emulatorSimulatorModule } from '../../shared/emulator-simulator';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { MinimaxEmulator } from '../emulator/minimax-emulator';
import { MinimaxSimulatorController } from './minimax-simulator.controller';

/** The embedded simulator of MiniMax's video API (mounted with SIMULATOR=on): the family's emulator, its tasks in the gateway's database. */
@Module(
  emulatorSimulatorModule({
    controllers: [MinimaxSimulatorController],
    emulator: MinimaxEmulator,
    make: (state) => new MinimaxEmulator({ apiKey: SIMULATOR_API_KEY, ...state }),
  }),
)
export class MinimaxSimulatorModule {}
