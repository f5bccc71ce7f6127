import { Module } from '@nestjs/common';
import { emulatorSimulatorModule } from '../../shared/emulator-simulator';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { VeoEmulator } from '../emulator/veo-emulator';
import { VeoSimulatorController } from './veo-simulator.controller';

/** The embedded simulator of Veo on the Gemini API (mounted with SIMULATOR=on): the family's emulator, its operations in the gateway's database. */
@Module(
  emulatorSimulatorModule({
    controllers: [VeoSimulatorController],
    emulator: VeoEmulator,
    make: (state) => new VeoEmulator({ apiKey: SIMULATOR_API_KEY, ...state }),
  }),
)
export class VeoSimulatorModule {}
