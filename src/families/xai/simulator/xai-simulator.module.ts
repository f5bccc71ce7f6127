import { Module } from '@nestjs/common';
import { emulatorSimulatorModule } from '../../shared/emulator-simulator';
import { XaiEmulator } from '../emulator/xai-emulator';
import { XAI_SIMULATOR_KEY } from '../xai-key';
import { XaiSimulatorController } from './xai-simulator.controller';

/** The embedded simulator of xAI's video API (mounted with SIMULATOR=on): the family's emulator, its requests in the gateway's database. */
@Module(
  emulatorSimulatorModule({
    controllers: [XaiSimulatorController],
    emulator: XaiEmulator,
    make: (state) => new XaiEmulator({ apiKey: XAI_SIMULATOR_KEY, ...state }),
  }),
)
export class XaiSimulatorModule {}
