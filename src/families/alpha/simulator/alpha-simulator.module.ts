import { Module } from '@nestjs/common';
import { Clock } from '../../../common/runtime/clock';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';
import { AlphaEmulator } from '../emulator/alpha-emulator';
import { AlphaSimulatorController } from './alpha-simulator.controller';

/** The embedded simulator of the family A provider (mounted with SIMULATOR=on): the family's emulator, its images and videos in the gateway's database. */
@Module({
  imports: [SimulatorStateModule],
  controllers: [AlphaSimulatorController],
  providers: [
    {
      provide: AlphaEmulator,
      inject: [SimulatorRecords, Clock],
      useFactory: (records: SimulatorRecords, clock: Clock) =>
        new AlphaEmulator({ apiKey: SIMULATOR_API_KEY, records, now: () => clock.now(), video: { file: SAMPLE_VIDEO_PATH } }),
    },
  ],
})
export class AlphaSimulatorModule {}
