import { Module } from '@nestjs/common';
import { ServerSecret } from '../../../database/server-secret.service';
import { emulatorSimulatorModule } from '../../shared/emulator-simulator';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { BetaEmulator } from '../emulator/beta-emulator';
import { BetaSimulatorController } from './beta-simulator.controller';

/**
 * The embedded simulator of the family B provider (mounted with SIMULATOR=on): the family's emulator,
 * its tasks in the gateway's database, its video links signed with a key derived from the server secret.
 */
@Module(
  emulatorSimulatorModule({
    controllers: [BetaSimulatorController],
    emulator: BetaEmulator,
    inject: [ServerSecret],
    make: (state, secret: ServerSecret) =>
      new BetaEmulator({
        apiKey: SIMULATOR_API_KEY,
        ...state,
        // Derived on each use: the secret is read at start, and retiring the database-held one changes it.
        linkKey: () => secret.derive('simulator-beta-links'),
      }),
  }),
)
export class BetaSimulatorModule {}
