import { Module } from '@nestjs/common';
import { emulatorSimulatorModule } from '../../shared/emulator-simulator';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { ReplicateEmulator } from '../emulator/replicate-emulator';
import { ReplicateSimulatorController } from './replicate-simulator.controller';

/** The embedded simulator of Replicate's predictions API (mounted with SIMULATOR=on): the family's emulator, its predictions in the gateway's database. */
@Module(
  emulatorSimulatorModule({
    controllers: [ReplicateSimulatorController],
    emulator: ReplicateEmulator,
    make: (state) => new ReplicateEmulator({ apiToken: SIMULATOR_API_KEY, ...state }),
  }),
)
export class ReplicateSimulatorModule {}
