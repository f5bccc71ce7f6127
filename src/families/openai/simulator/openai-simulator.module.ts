import { Module } from '@nestjs/common';
import { OpenAiSimulatorController } from './openai-simulator.controller';
import { OpenAiSimulatorStore } from './openai-simulator.store';
import { SimulatorStateModule } from '../../simulator-shared/simulator-state.module';

/** The embedded simulator of an OpenAI-compatible Videos API (mounted with SIMULATOR=on). */
@Module({
  imports: [SimulatorStateModule],
  controllers: [OpenAiSimulatorController],
  providers: [OpenAiSimulatorStore],
})
export class OpenAiSimulatorModule {}
