import { Controller, Get, Head, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { emulatorRequestOf, sendEmulatorReply } from '../../simulator-shared/emulator-http';
import { KlingEmulator } from '../emulator/kling-emulator';

const MOUNT = '/simulator/kling';

/** The embedded Kling API under /simulator/kling: every route is the family's one emulator (emulator/kling-emulator.ts). */
@ApiExcludeController()
@Controller('simulator/kling')
export class KlingSimulatorController {
  constructor(private readonly emulator: KlingEmulator) {}

  @Post('v1/videos/:endpoint')
  create(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('v1/videos/:endpoint/:id')
  get(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('cdn/:file')
  @Head('cdn/:file')
  video(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  private async serve(req: Request, res: Response): Promise<void> {
    const reply = await this.emulator.handle(emulatorRequestOf(req, MOUNT), `${req.protocol}://${req.get('host')}${MOUNT}`);
    sendEmulatorReply(res, reply);
  }
}
