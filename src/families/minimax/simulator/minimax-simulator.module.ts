import { Module } from '@nestjs/common';
import { Clock } from '../../../common/runtime/clock';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';
import { MinimaxEmulator } from '../emulator/minimax-emulator';
import { MinimaxSimulatorController } from './minimax-simulator.controller';

/** The embedded simulator of MiniMax's video API (mounted with SIMULATOR=on): the family's emulator, its tasks in the gateway's database. */
@Module({
  imports: [SimulatorStateModule],
  controllers: [MinimaxSimulatorController],
  providers: [
    {
      provide: MinimaxEmulator,
      inject: [SimulatorRecords, Clock],
      useFactory: (records: SimulatorRecords, clock: Clock) =>
        new MinimaxEmulator({ apiKey: SIMULATOR_API_KEY, records, now: () => clock.now(), video: { file: SAMPLE_VIDEO_PATH } }),
    },
  ],
})
export class MinimaxSimulatorModule {}
