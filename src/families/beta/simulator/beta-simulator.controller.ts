import { Get, Head, Post } from '@nestjs/common';
import { emulatorController } from '../../shared/emulator-simulator';
import { BetaEmulator } from '../emulator/beta-emulator';

/** The embedded family B provider under /simulator/beta: every route is the family's one emulator (emulator/beta-emulator.ts). */
export class BetaSimulatorController extends emulatorController('beta', BetaEmulator, [
  [Post('api/v1/services/aigc/video-generation/video-synthesis')],
  [Get('api/v1/tasks/:id')],
  [Get('videos/:file'), Head('videos/:file')],
]) {}
