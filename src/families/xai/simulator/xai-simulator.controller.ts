import { Get, Head, Post } from '@nestjs/common';
import { emulatorController } from '../../shared/emulator-simulator';
import { XaiEmulator } from '../emulator/xai-emulator';

/** The embedded xAI video API under /simulator/xai: every route is the family's one emulator (emulator/xai-emulator.ts). */
export class XaiSimulatorController extends emulatorController('xai', XaiEmulator, [
  [Post('v1/videos/generations')],
  [Post('v1/videos/edits')],
  [Post('v1/videos/extensions')],
  [Get('v1/videos/:id')],
  [Get('vidgen/:file'), Head('vidgen/:file')],
]) {}
