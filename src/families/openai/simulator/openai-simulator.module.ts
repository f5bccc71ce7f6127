import { Module } from '@nestjs/common';
import { Clock } from '../../../common/runtime/clock';
import { SAMPLE_VIDEO_PATH } from '../../simulator-shared/sample-video';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';
import { OpenAiEmulator, SORA_RULES } from '../emulator/openai-emulator';
import { OpenAiSimulatorController } from './openai-simulator.controller';

/** The models the simulator takes (and its seeded channel lists): its own, since OpenAI shut Sora 2 down (docs/simulator.md). */
export const OPENAI_SIMULATOR_MODELS = ['openai-simulator'];

/** The embedded simulator of an OpenAI-compatible Videos API (mounted with SIMULATOR=on): the family's emulator serving its own model by Sora's rules, its videos in the gateway's database. */
@Module({
  imports: [SimulatorStateModule],
  controllers: [OpenAiSimulatorController],
  providers: [
    {
      provide: OpenAiEmulator,
      inject: [SimulatorRecords, Clock],
      useFactory: (records: SimulatorRecords, clock: Clock) =>
        new OpenAiEmulator({
          apiKey: SIMULATOR_API_KEY,
          records,
          now: () => clock.now(),
          video: { file: SAMPLE_VIDEO_PATH },
          rules: { ...SORA_RULES, models: OPENAI_SIMULATOR_MODELS },
        }),
    },
  ],
})
export class OpenAiSimulatorModule {}
