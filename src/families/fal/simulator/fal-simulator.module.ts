import { Module } from '@nestjs/common';
import { emulatorSimulatorModule } from '../../shared/emulator-simulator';
import { FAL_SIMULATOR_KEY, FalEmulator } from '../emulator/fal-emulator';
import { FalSimulatorController } from './fal-simulator.controller';

/** The embedded simulator of fal's queue (mounted with SIMULATOR=on): the family's emulator, its requests in the gateway's database. */
@Module(
  emulatorSimulatorModule({
    controllers: [FalSimulatorController],
    emulator: FalEmulator,
    make: (state) => new FalEmulator({ apiKey: FAL_SIMULATOR_KEY, ...state }),
  }),
)
export class FalSimulatorModule {}
