import { Module } from '@nestjs/common';
import { emulatorSimulatorModule } from '../../shared/emulator-simulator';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { SeedanceEmulator } from '../emulator/seedance-emulator';
import { SeedanceSimulatorController } from './seedance-simulator.controller';

/** The embedded simulator of Ark's video API (mounted with SIMULATOR=on): the family's emulator, its tasks in the gateway's database. */
@Module(
  emulatorSimulatorModule({
    controllers: [SeedanceSimulatorController],
    emulator: SeedanceEmulator,
    make: (state) => new SeedanceEmulator({ apiKey: SIMULATOR_API_KEY, ...state }),
  }),
)
export class SeedanceSimulatorModule {}
