import { Module } from '@nestjs/common';
import { Clock } from '../../../common/runtime/clock';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';
import { VeoEmulator } from '../emulator/veo-emulator';
import { VeoSimulatorController } from './veo-simulator.controller';

/** The embedded simulator of Veo on the Gemini API (mounted with SIMULATOR=on): the family's emulator, its operations in the gateway's database. */
@Module({
  imports: [SimulatorStateModule],
  controllers: [VeoSimulatorController],
  providers: [
    {
      provide: VeoEmulator,
      inject: [SimulatorRecords, Clock],
      useFactory: (records: SimulatorRecords, clock: Clock) =>
        new VeoEmulator({ apiKey: SIMULATOR_API_KEY, records, now: () => clock.now(), video: { file: SAMPLE_VIDEO_PATH } }),
    },
  ],
})
export class VeoSimulatorModule {}
