import { Module } from '@nestjs/common';
import { emulatorSimulatorModule } from '../../shared/emulator-simulator';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { RunwayEmulator } from '../emulator/runway-emulator';
import { RunwaySimulatorController } from './runway-simulator.controller';

/** The embedded simulator of Runway's API (mounted with SIMULATOR=on): the family's emulator, its tasks in the gateway's database. */
@Module(
  emulatorSimulatorModule({
    controllers: [RunwaySimulatorController],
    emulator: RunwayEmulator,
    make: (state) => new RunwayEmulator({ apiKey: SIMULATOR_API_KEY, ...state }),
  }),
)
export class RunwaySimulatorModule {}
