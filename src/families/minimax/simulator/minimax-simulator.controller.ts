import { Get, Head, Post } from '@nestjs/common';
import { emulatorController } from '../../shared/emulator-simulator';
import { MinimaxEmulator } from '../emulator/minimax-emulator';

/** The embedded MiniMax video API (v1 and v2) under /simulator/minimax: every route is the family's one emulator (emulator/minimax-emulator.ts). */
export class MinimaxSimulatorController extends emulatorController('minimax', MinimaxEmulator, [
  [Post('v1/video_generation')],
  [Get('v1/query/video_generation')],
  [Get('v1/files/retrieve')],
  [Post('v2/video_generation')],
  [Get('v2/query/video_generation/:id')],
  [Get('v2/query/video_generation')],
  [Get('cdn/:fileId/output.mp4'), Head('cdn/:fileId/output.mp4')],
]) {}
