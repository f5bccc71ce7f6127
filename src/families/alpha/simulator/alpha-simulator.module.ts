import { Module } from '@nestjs/common';
import { emulatorSimulatorModule } from '../../shared/emulator-simulator';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { AlphaEmulator } from '../emulator/alpha-emulator';
import { AlphaSimulatorController } from './alpha-simulator.controller';

/** The embedded simulator of the family A provider (mounted with SIMULATOR=on): the family's emulator, its images and videos in the gateway's database. */
@Module(
  emulatorSimulatorModule({
    controllers: [AlphaSimulatorController],
    emulator: AlphaEmulator,
    make: (state) => new AlphaEmulator({ apiKey: SIMULATOR_API_KEY, ...state }),
  }),
)
export class AlphaSimulatorModule {}
