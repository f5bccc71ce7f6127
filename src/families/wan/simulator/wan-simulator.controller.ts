import { Get, Head, Post } from '@nestjs/common';
import { emulatorController } from '../../shared/emulator-simulator';
import { WanEmulator } from '../emulator/wan-emulator';

/** The embedded DashScope video API under /simulator/wan: every route is the family's one emulator (emulator/wan-emulator.ts). */
export class WanSimulatorController extends emulatorController('wan', WanEmulator, [
  [Post('api/v1/services/aigc/video-generation/video-synthesis')],
  [Get('api/v1/tasks/:id')],
  [Post('api/v1/tasks/:id/cancel')],
  [Get('oss/:file'), Head('oss/:file')],
]) {}
