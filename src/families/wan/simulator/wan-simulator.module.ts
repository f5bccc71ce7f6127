import { Module } from '@nestjs/common';
import { emulatorSimulatorModule } from '../../shared/emulator-simulator';
import { WanEmulator } from '../emulator/wan-emulator';
import { WAN_SIMULATOR_KEY } from '../wan-key';
import { WanSimulatorController } from './wan-simulator.controller';

/** The embedded simulator of DashScope's video synthesis (mounted with SIMULATOR=on): the family's emulator, its tasks in the gateway's database. */
@Module(
  emulatorSimulatorModule({
    controllers: [WanSimulatorController],
    emulator: WanEmulator,
    make: (state) => new WanEmulator({ apiKey: WAN_SIMULATOR_KEY, ...state }),
  }),
)
export class WanSimulatorModule {}
