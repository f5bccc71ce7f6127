import { Controller, Get, Head, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { emulatorRequestOf, sendEmulatorReply } from '../../simulator-shared/emulator-http';
import { VeoEmulator } from '../emulator/veo-emulator';

const MOUNT = '/simulator/veo';

/** The embedded Gemini API for Veo under /simulator/veo: every route is the family's one emulator (emulator/veo-emulator.ts). */
@ApiExcludeController()
@Controller('simulator/veo')
export class VeoSimulatorController {
  constructor(private readonly emulator: VeoEmulator) {}

  @Post('v1beta/models/:modelAction')
  predict(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('v1beta/models')
  list(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('v1beta/models/:model/operations/:id')
  operation(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('v1beta/files/:fileAction')
  download(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('storage/:id')
  @Head('storage/:id')
  storage(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  private async serve(req: Request, res: Response): Promise<void> {
    const reply = await this.emulator.handle(emulatorRequestOf(req, MOUNT), `${req.protocol}://${req.get('host')}${MOUNT}`);
    sendEmulatorReply(res, reply);
  }
}
