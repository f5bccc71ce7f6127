import { Controller, Get, Head, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { emulatorRequestOf, sendEmulatorReply } from '../../simulator-shared/emulator-http';
import { OpenAiEmulator } from '../emulator/openai-emulator';

const MOUNT = '/simulator/openai';

/**
 * The embedded OpenAI-compatible Videos API under /simulator/openai: every route is the family's one
 * emulator (emulator/openai-emulator.ts); multer reads a multipart submit for it.
 */
@ApiExcludeController()
@Controller('simulator/openai')
export class OpenAiSimulatorController {
  constructor(private readonly emulator: OpenAiEmulator) {}

  @Post('videos')
  @UseInterceptors(FileInterceptor('input_reference', { limits: { fileSize: 20 * 1024 * 1024, files: 1, fields: 10 } }))
  create(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('videos')
  list(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('videos/:id')
  get(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('videos/:id/content')
  @Head('videos/:id/content')
  content(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  private async serve(req: Request, res: Response): Promise<void> {
    sendEmulatorReply(res, await this.emulator.handle(emulatorRequestOf(req, MOUNT)));
  }
}
