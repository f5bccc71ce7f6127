import { Module } from '@nestjs/common';
import { Clock } from '../../../common/runtime/clock';
import { ServerSecret } from '../../../database/server-secret.service';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';
import { BetaEmulator } from '../emulator/beta-emulator';
import { BetaSimulatorController } from './beta-simulator.controller';

/**
 * The embedded simulator of the family B provider (mounted with SIMULATOR=on): the family's emulator,
 * its tasks in the gateway's database, its video links signed with a key derived from the server secret.
 */
@Module({
  imports: [SimulatorStateModule],
  controllers: [BetaSimulatorController],
  providers: [
    {
      provide: BetaEmulator,
      inject: [SimulatorRecords, Clock, ServerSecret],
      useFactory: (records: SimulatorRecords, clock: Clock, secret: ServerSecret) =>
        new BetaEmulator({
          apiKey: SIMULATOR_API_KEY,
          records,
          now: () => clock.now(),
          video: { file: SAMPLE_VIDEO_PATH },
          // Derived on each use: the secret is read at start, and retiring the database-held one changes it.
          linkKey: () => secret.derive('simulator-beta-links'),
        }),
    },
  ],
})
export class BetaSimulatorModule {}
