import { Module } from '@nestjs/common';
import { emulatorSimulatorModule } from '../../shared/emulator-simulator';
import { SIMULATOR_ACCESS_KEY, SIMULATOR_SECRET_KEY } from '../../simulator-shared/simulator-credentials';
import { KlingEmulator } from '../emulator/kling-emulator';
import { KlingSimulatorController } from './kling-simulator.controller';

/** The embedded simulator of Kling's video API (mounted with SIMULATOR=on): the family's emulator, its tasks in the gateway's database. */
@Module(
  emulatorSimulatorModule({
    controllers: [KlingSimulatorController],
    emulator: KlingEmulator,
    make: (state) => new KlingEmulator({ accessKey: SIMULATOR_ACCESS_KEY, secretKey: SIMULATOR_SECRET_KEY, ...state }),
  }),
)
export class KlingSimulatorModule {}
