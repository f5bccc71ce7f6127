import { Controller, Get, Head, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { emulatorRequestOf, sendEmulatorReply } from '../../simulator-shared/emulator-http';
import { XaiEmulator } from '../emulator/xai-emulator';

const MOUNT = '/simulator/xai';

/** The embedded xAI video API under /simulator/xai: every route is the family's one emulator (emulator/xai-emulator.ts). */
@ApiExcludeController()
@Controller('simulator/xai')
export class XaiSimulatorController {
  constructor(private readonly emulator: XaiEmulator) {}

  @Post('v1/videos/generations')
  create(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('v1/videos/:id')
  query(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('vidgen/:file')
  @Head('vidgen/:file')
  video(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  private async serve(req: Request, res: Response): Promise<void> {
    const reply = await this.emulator.handle(emulatorRequestOf(req, MOUNT), `${req.protocol}://${req.get('host')}${MOUNT}`);
    sendEmulatorReply(res, reply);
  }
}
