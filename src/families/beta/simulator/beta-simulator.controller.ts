import { Controller, Get, Head, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { emulatorRequestOf, sendEmulatorReply } from '../../simulator-shared/emulator-http';
import { BetaEmulator } from '../emulator/beta-emulator';

const MOUNT = '/simulator/beta';

/** The embedded family B provider under /simulator/beta: every route is the family's one emulator (emulator/beta-emulator.ts). */
@ApiExcludeController()
@Controller('simulator/beta')
export class BetaSimulatorController {
  constructor(private readonly emulator: BetaEmulator) {}

  @Post('api/v1/services/aigc/video-generation/video-synthesis')
  submit(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('api/v1/tasks/:id')
  query(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('videos/:file')
  @Head('videos/:file')
  video(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  private async serve(req: Request, res: Response): Promise<void> {
    const reply = await this.emulator.handle(emulatorRequestOf(req, MOUNT), `${req.protocol}://${req.get('host')}${MOUNT}`);
    sendEmulatorReply(res, reply);
  }
}
