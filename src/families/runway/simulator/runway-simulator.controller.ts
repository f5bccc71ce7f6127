import { Delete, Get, Head, Post } from '@nestjs/common';
import { emulatorController } from '../../shared/emulator-simulator';
import { RunwayEmulator } from '../emulator/runway-emulator';

/** The embedded Runway API under /simulator/runway: every route is the family's one emulator (emulator/runway-emulator.ts). */
export class RunwaySimulatorController extends emulatorController('runway', RunwayEmulator, [
  [Post('v1/text_to_video')],
  [Post('v1/image_to_video')],
  [Post('v1/video_to_video')],
  [Get('v1/tasks/:id')],
  [Delete('v1/tasks/:id')],
  [Get('outputs/:file'), Head('outputs/:file')],
]) {}
