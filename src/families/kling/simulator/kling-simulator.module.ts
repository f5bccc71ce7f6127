import { Module } from '@nestjs/common';
import { Clock } from '../../../common/runtime/clock';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SIMULATOR_ACCESS_KEY, SIMULATOR_SECRET_KEY } from '../../simulator-shared/simulator-credentials';
import { SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';
import { KlingEmulator } from '../emulator/kling-emulator';
import { KlingSimulatorController } from './kling-simulator.controller';

/** The embedded simulator of Kling's video API (mounted with SIMULATOR=on): the family's emulator, its tasks in the gateway's database. */
@Module({
  imports: [SimulatorStateModule],
  controllers: [KlingSimulatorController],
  providers: [
    {
      provide: KlingEmulator,
      inject: [SimulatorRecords, Clock],
      useFactory: (records: SimulatorRecords, clock: Clock) =>
        new KlingEmulator({
          accessKey: SIMULATOR_ACCESS_KEY,
          secretKey: SIMULATOR_SECRET_KEY,
          records,
          now: () => clock.now(),
          video: { file: SAMPLE_VIDEO_PATH },
        }),
    },
  ],
})
export class KlingSimulatorModule {}
