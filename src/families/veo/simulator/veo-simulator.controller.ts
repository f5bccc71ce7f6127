import { Get, Head, Post } from '@nestjs/common';
import { emulatorController } from '../../shared/emulator-simulator';
import { VeoEmulator } from '../emulator/veo-emulator';

/** The embedded Gemini API for Veo and Gemini Omni under /simulator/veo: every route is the family's one emulator (emulator/veo-emulator.ts). */
export class VeoSimulatorController extends emulatorController('veo', VeoEmulator, [
  [Post('v1beta/models/:modelAction')],
  [Get('v1beta/models')],
  [Get('v1beta/models/:model/operations/:id')],
  [Get('v1beta/files/:fileAction')],
  [Post('v1beta/interactions')],
  [Get('v1beta/interactions/:id')],
  [Post('v1beta/interactions/:id/cancel')],
  [Get('storage/:id'), Head('storage/:id')],
]) {}
