import { Controller, Get, Head, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { emulatorRequestOf, sendEmulatorReply } from '../../simulator-shared/emulator-http';
import { MinimaxEmulator } from '../emulator/minimax-emulator';

const MOUNT = '/simulator/minimax';

/** The embedded MiniMax video API v1 under /simulator/minimax: every route is the family's one emulator (emulator/minimax-emulator.ts). */
@ApiExcludeController()
@Controller('simulator/minimax')
export class MinimaxSimulatorController {
  constructor(private readonly emulator: MinimaxEmulator) {}

  @Post('v1/video_generation')
  create(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('v1/query/video_generation')
  query(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('v1/files/retrieve')
  retrieve(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('cdn/:fileId/output.mp4')
  @Head('cdn/:fileId/output.mp4')
  download(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  private async serve(req: Request, res: Response): Promise<void> {
    const reply = await this.emulator.handle(emulatorRequestOf(req, MOUNT), `${req.protocol}://${req.get('host')}${MOUNT}`);
    sendEmulatorReply(res, reply);
  }
}
