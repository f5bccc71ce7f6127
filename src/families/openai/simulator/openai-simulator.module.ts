import { Module } from '@nestjs/common';
import { OpenAiSimulatorController } from './openai-simulator.controller';
import { OpenAiSimulatorStore } from './openai-simulator.store';

/** The embedded simulator of an OpenAI-compatible Videos API (mounted with SIMULATOR=on). */
@Module({
  controllers: [OpenAiSimulatorController],
  providers: [OpenAiSimulatorStore],
})
export class OpenAiSimulatorModule {}
