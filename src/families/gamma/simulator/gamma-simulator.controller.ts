import { Controller, Delete, Get, Head, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import { emulatorRequestOf, sendEmulatorReply } from '../../simulator-shared/emulator-http';
import { GammaEmulator } from '../emulator/gamma-emulator';

const DATA_MOUNT = '/simulator/gamma';
const CONTROL_MOUNT = '/simulator/gamma-control';

/**
 * The embedded family C provider: the data plane under /simulator/gamma, the signed control plane
 * (its body arrives raw, see bootstrap) and its liveness H5 page under /simulator/gamma-control.
 * Every route is the family's one emulator (emulator/gamma-emulator.ts).
 */
@ApiExcludeController()
@Controller('simulator')
export class GammaSimulatorController {
  constructor(
    private readonly emulator: GammaEmulator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('gamma/api/v3/contents/generations/tasks')
  submit(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.data(req, res);
  }

  @Get('gamma/api/v3/contents/generations/tasks/:id')
  query(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.data(req, res);
  }

  @Delete('gamma/api/v3/contents/generations/tasks/:id')
  cancel(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.data(req, res);
  }

  @Get('gamma/videos/:file')
  @Head('gamma/videos/:file')
  video(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.data(req, res);
  }

  @Post('gamma-control')
  control(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.controlPlane(req, res);
  }

  @Get(['gamma-control/h5', 'gamma-control/h5/pass', 'gamma-control/h5/fail'])
  h5(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.controlPlane(req, res);
  }

  private async data(req: Request, res: Response): Promise<void> {
    const base = `${req.protocol}://${req.get('host')}${DATA_MOUNT}`;
    sendEmulatorReply(res, await this.emulator.handleDataPlane(emulatorRequestOf(req, DATA_MOUNT), base));
  }

  /** The H5 link is for the user's browser: on the gateway's public address, not the one the gateway called. */
  private async controlPlane(req: Request, res: Response): Promise<void> {
    const base = `${this.config.publicBaseUrl}${CONTROL_MOUNT}`;
    sendEmulatorReply(res, await this.emulator.handleControlPlane(emulatorRequestOf(req, CONTROL_MOUNT), base));
  }
}
