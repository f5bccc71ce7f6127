import { Controller, Get, Head, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { emulatorRequestOf, sendEmulatorReply } from '../../simulator-shared/emulator-http';
import { ReplicateEmulator } from '../emulator/replicate-emulator';

const MOUNT = '/simulator/replicate';

/** The embedded Replicate API under /simulator/replicate: every route is the family's one emulator (emulator/replicate-emulator.ts). */
@ApiExcludeController()
@Controller('simulator/replicate')
export class ReplicateSimulatorController {
  constructor(private readonly emulator: ReplicateEmulator) {}

  @Post('v1/models/:owner/:name/predictions')
  createByModel(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Post('v1/predictions')
  createByVersion(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('v1/predictions/:id')
  get(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Post('v1/predictions/:id/cancel')
  cancel(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('v1/account')
  account(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('files/:file')
  @Head('files/:file')
  file(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  private async serve(req: Request, res: Response): Promise<void> {
    const reply = await this.emulator.handle(emulatorRequestOf(req, MOUNT), `${req.protocol}://${req.get('host')}${MOUNT}`);
    sendEmulatorReply(res, reply);
  }
}
