import { Module } from '@nestjs/common';
import { Clock } from '../../../common/runtime/clock';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';
import { ReplicateEmulator } from '../emulator/replicate-emulator';
import { ReplicateSimulatorController } from './replicate-simulator.controller';

/** The embedded simulator of Replicate's predictions API (mounted with SIMULATOR=on): the family's emulator, its predictions in the gateway's database. */
@Module({
  imports: [SimulatorStateModule],
  controllers: [ReplicateSimulatorController],
  providers: [
    {
      provide: ReplicateEmulator,
      inject: [SimulatorRecords, Clock],
      useFactory: (records: SimulatorRecords, clock: Clock) =>
        new ReplicateEmulator({ apiToken: SIMULATOR_API_KEY, records, now: () => clock.now(), video: { file: SAMPLE_VIDEO_PATH } }),
    },
  ],
})
export class ReplicateSimulatorModule {}
