import { Module } from '@nestjs/common';
import { Clock } from '../../../common/runtime/clock';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';
import { RunwayEmulator } from '../emulator/runway-emulator';
import { RunwaySimulatorController } from './runway-simulator.controller';

/** The embedded simulator of Runway's API (mounted with SIMULATOR=on): the family's emulator, its tasks in the gateway's database. */
@Module({
  imports: [SimulatorStateModule],
  controllers: [RunwaySimulatorController],
  providers: [
    {
      provide: RunwayEmulator,
      inject: [SimulatorRecords, Clock],
      useFactory: (records: SimulatorRecords, clock: Clock) =>
        new RunwayEmulator({ apiKey: SIMULATOR_API_KEY, records, now: () => clock.now(), video: { file: SAMPLE_VIDEO_PATH } }),
    },
  ],
})
export class RunwaySimulatorModule {}
