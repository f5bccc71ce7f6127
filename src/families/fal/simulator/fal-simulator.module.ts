import { Module } from '@nestjs/common';
import { Clock } from '../../../common/runtime/clock';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';
import { FAL_SIMULATOR_KEY, FalEmulator } from '../emulator/fal-emulator';
import { FalSimulatorController } from './fal-simulator.controller';

/** The embedded simulator of fal's queue (mounted with SIMULATOR=on): the family's emulator, its requests in the gateway's database. */
@Module({
  imports: [SimulatorStateModule],
  controllers: [FalSimulatorController],
  providers: [
    {
      provide: FalEmulator,
      inject: [SimulatorRecords, Clock],
      useFactory: (records: SimulatorRecords, clock: Clock) =>
        new FalEmulator({ apiKey: FAL_SIMULATOR_KEY, records, now: () => clock.now(), video: { file: SAMPLE_VIDEO_PATH } }),
    },
  ],
})
export class FalSimulatorModule {}
