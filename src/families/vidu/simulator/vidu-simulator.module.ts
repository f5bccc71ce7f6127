import { Module } from '@nestjs/common';
import { Clock } from '../../../common/runtime/clock';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';
import { ViduEmulator } from '../emulator/vidu-emulator';
import { ViduSimulatorController } from './vidu-simulator.controller';

/** The embedded simulator of Vidu's ent/v2 API (mounted with SIMULATOR=on): the family's emulator, its tasks in the gateway's database. */
@Module({
  imports: [SimulatorStateModule],
  controllers: [ViduSimulatorController],
  providers: [
    {
      provide: ViduEmulator,
      inject: [SimulatorRecords, Clock],
      useFactory: (records: SimulatorRecords, clock: Clock) =>
        new ViduEmulator({ apiKey: SIMULATOR_API_KEY, records, now: () => clock.now(), video: { file: SAMPLE_VIDEO_PATH } }),
    },
  ],
})
export class ViduSimulatorModule {}
