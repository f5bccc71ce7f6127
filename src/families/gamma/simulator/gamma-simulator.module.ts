import { Module } from '@nestjs/common';
import { emulatorSimulatorModule } from '../../shared/emulator-simulator';
import { SIMULATOR_ACCESS_KEY, SIMULATOR_API_KEY, SIMULATOR_SECRET_KEY } from '../../simulator-shared/simulator-credentials';
import { GammaEmulator } from '../emulator/gamma-emulator';
import { GammaControlSimulatorController, GammaSimulatorController } from './gamma-simulator.controller';
import { GammaControlPlaneMount, GammaDataPlaneMount } from './gamma-simulator-mounts';

/**
 * The embedded simulator of the family C provider (mounted with SIMULATOR=on): the family's emulator
 * on the clock's timeline, its state in the gateway's database, so the whole verification flow works
 * in a browser with no network.
 */
@Module(
  emulatorSimulatorModule({
    controllers: [GammaSimulatorController, GammaControlSimulatorController],
    providers: [GammaDataPlaneMount, GammaControlPlaneMount],
    emulator: GammaEmulator,
    make: (state) =>
      new GammaEmulator({
        apiKey: SIMULATOR_API_KEY,
        accessKey: SIMULATOR_ACCESS_KEY,
        secretKey: SIMULATOR_SECRET_KEY,
        ...state,
        timeline: 'clock',
      }),
  }),
)
export class GammaSimulatorModule {}
