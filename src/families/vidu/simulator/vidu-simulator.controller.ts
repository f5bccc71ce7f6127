import { Controller, Get, Head, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { emulatorRequestOf, sendEmulatorReply } from '../../simulator-shared/emulator-http';
import { ViduEmulator } from '../emulator/vidu-emulator';

const MOUNT = '/simulator/vidu';

/** The embedded Vidu API under /simulator/vidu: every route is the family's one emulator (emulator/vidu-emulator.ts). */
@ApiExcludeController()
@Controller('simulator/vidu')
export class ViduSimulatorController {
  constructor(private readonly emulator: ViduEmulator) {}

  @Post('ent/v2/:endpoint')
  create(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('ent/v2/tasks/:id/creations')
  query(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Post('ent/v2/tasks/:id/cancel')
  cancel(@Req() req: Request, @Res() res: Response): Promise<void> {
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
