import { Module } from '@nestjs/common';
import { emulatorSimulatorModule } from '../../shared/emulator-simulator';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { ViduEmulator } from '../emulator/vidu-emulator';
import { ViduSimulatorController } from './vidu-simulator.controller';

/** The embedded simulator of Vidu's ent/v2 API (mounted with SIMULATOR=on): the family's emulator, its tasks in the gateway's database. */
@Module(
  emulatorSimulatorModule({
    controllers: [ViduSimulatorController],
    emulator: ViduEmulator,
    make: (state) => new ViduEmulator({ apiKey: SIMULATOR_API_KEY, ...state }),
  }),
)
export class ViduSimulatorModule {}
