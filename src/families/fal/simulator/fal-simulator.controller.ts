import { All, Controller, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { emulatorRequestOf, sendEmulatorReply } from '../../simulator-shared/emulator-http';
import { FalEmulator } from '../emulator/fal-emulator';

const MOUNT = '/simulator/fal';

/** The embedded fal queue under /simulator/fal: every path (endpoint ids have any depth) is the family's one emulator. */
@ApiExcludeController()
@Controller('simulator/fal')
export class FalSimulatorController {
  constructor(private readonly emulator: FalEmulator) {}

  @All('*path')
  async serve(@Req() req: Request, @Res() res: Response): Promise<void> {
    const reply = await this.emulator.handle(emulatorRequestOf(req, MOUNT), `${req.protocol}://${req.get('host')}${MOUNT}`);
    sendEmulatorReply(res, reply);
  }
}
