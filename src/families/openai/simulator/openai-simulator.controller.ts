import { Get, Head, Post, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { emulatorController } from '../../shared/emulator-simulator';
import { OpenAiEmulator } from '../emulator/openai-emulator';

/**
 * The embedded OpenAI-compatible Videos API under /simulator/openai: every route is the family's one
 * emulator (emulator/openai-emulator.ts); multer reads a multipart submit for it.
 */
export class OpenAiSimulatorController extends emulatorController('openai', OpenAiEmulator, [
  [Post('videos'), UseInterceptors(FileInterceptor('input_reference', { limits: { fileSize: 20 * 1024 * 1024, files: 1, fields: 10 } }))],
  [Get('videos')],
  [Get('videos/:id')],
  [Get('videos/:id/content'), Head('videos/:id/content')],
]) {}
