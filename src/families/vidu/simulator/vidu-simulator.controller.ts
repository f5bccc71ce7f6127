import { Get, Head, Post } from '@nestjs/common';
import { emulatorController } from '../../shared/emulator-simulator';
import { ViduEmulator } from '../emulator/vidu-emulator';

/** The embedded Vidu API under /simulator/vidu: every route is the family's one emulator (emulator/vidu-emulator.ts). */
export class ViduSimulatorController extends emulatorController('vidu', ViduEmulator, [
  [Post('ent/v2/:endpoint')],
  [Get('ent/v2/tasks/:id/creations')],
  [Post('ent/v2/tasks/:id/cancel')],
  [Get('cdn/:file'), Head('cdn/:file')],
]) {}
