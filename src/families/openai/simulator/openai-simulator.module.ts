import { Module } from '@nestjs/common';
import { emulatorSimulatorModule } from '../../shared/emulator-simulator';
import { SIMULATOR_API_KEY } from '../../simulator-shared/simulator-credentials';
import { OpenAiEmulator, SORA_RULES } from '../emulator/openai-emulator';
import { OpenAiSimulatorController } from './openai-simulator.controller';

/** The models the simulator takes (and its seeded channel lists): its own, since OpenAI shut Sora 2 down (docs/simulator.md). */
export const OPENAI_SIMULATOR_MODELS = ['openai-simulator'];

/** The embedded simulator of an OpenAI-compatible Videos API (mounted with SIMULATOR=on): the family's emulator serving its own model by Sora's rules, its videos in the gateway's database. */
@Module(
  emulatorSimulatorModule({
    controllers: [OpenAiSimulatorController],
    emulator: OpenAiEmulator,
    make: (state) => new OpenAiEmulator({ apiKey: SIMULATOR_API_KEY, ...state, rules: { ...SORA_RULES, models: OPENAI_SIMULATOR_MODELS } }),
  }),
)
export class OpenAiSimulatorModule {}
