import { Get, Head, Post } from '@nestjs/common';
import { emulatorController } from '../../shared/emulator-simulator';
import { KlingEmulator } from '../emulator/kling-emulator';

/** The embedded Kling API under /simulator/kling: every route is the family's one emulator (emulator/kling-emulator.ts). */
export class KlingSimulatorController extends emulatorController('kling', KlingEmulator, [
  [Post('v1/videos/:endpoint')],
  [Get('v1/videos/:endpoint/:id')],
  [Get('cdn/:file'), Head('cdn/:file')],
]) {}
