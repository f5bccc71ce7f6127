import { Get, Head, Post } from '@nestjs/common';
import { emulatorController } from '../../shared/emulator-simulator';
import { ReplicateEmulator } from '../emulator/replicate-emulator';

/** The embedded Replicate API under /simulator/replicate: every route is the family's one emulator (emulator/replicate-emulator.ts). */
export class ReplicateSimulatorController extends emulatorController('replicate', ReplicateEmulator, [
  [Post('v1/models/:owner/:name/predictions')],
  [Post('v1/predictions')],
  [Get('v1/predictions/:id')],
  [Post('v1/predictions/:id/cancel')],
  [Get('v1/account')],
  [Get('files/:file'), Head('files/:file')],
]) {}
