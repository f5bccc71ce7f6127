import { Controller, Delete, Get, Head, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { emulatorRequestOf, sendEmulatorReply } from '../../simulator-shared/emulator-http';
import { RunwayEmulator } from '../emulator/runway-emulator';

const MOUNT = '/simulator/runway';

/** The embedded Runway API under /simulator/runway: every route is the family's one emulator (emulator/runway-emulator.ts). */
@ApiExcludeController()
@Controller('simulator/runway')
export class RunwaySimulatorController {
  constructor(private readonly emulator: RunwayEmulator) {}

  @Post('v1/text_to_video')
  textToVideo(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Post('v1/image_to_video')
  imageToVideo(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('v1/tasks/:id')
  get(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Delete('v1/tasks/:id')
  cancel(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  @Get('outputs/:file')
  @Head('outputs/:file')
  output(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.serve(req, res);
  }

  private async serve(req: Request, res: Response): Promise<void> {
    const reply = await this.emulator.handle(emulatorRequestOf(req, MOUNT), `${req.protocol}://${req.get('host')}${MOUNT}`);
    sendEmulatorReply(res, reply);
  }
}
