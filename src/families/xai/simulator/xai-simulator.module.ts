import { Module } from '@nestjs/common';
import { Clock } from '../../../common/runtime/clock';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';
import { XaiEmulator } from '../emulator/xai-emulator';
import { XAI_SIMULATOR_KEY } from '../xai-key';
import { XaiSimulatorController } from './xai-simulator.controller';

/** The embedded simulator of xAI's video API (mounted with SIMULATOR=on): the family's emulator, its requests in the gateway's database. */
@Module({
  imports: [SimulatorStateModule],
  controllers: [XaiSimulatorController],
  providers: [
    {
      provide: XaiEmulator,
      inject: [SimulatorRecords, Clock],
      useFactory: (records: SimulatorRecords, clock: Clock) =>
        new XaiEmulator({ apiKey: XAI_SIMULATOR_KEY, records, now: () => clock.now(), video: { file: SAMPLE_VIDEO_PATH } }),
    },
  ],
})
export class XaiSimulatorModule {}
