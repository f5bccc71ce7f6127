import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../../config/app-config';
import type { MountedEmulator } from '../../shared/emulator-simulator';
import type { EmulatorReply, EmulatorRequest } from '../../simulator-shared/emulator-http';
import { GammaEmulator } from '../emulator/gamma-emulator';

/** Where the control plane is mounted. */
export const GAMMA_CONTROL_MOUNT = '/simulator/gamma-control';

/** The family's emulator as its data plane mount answers: tasks and their videos, under /simulator/gamma. */
@Injectable()
export class GammaDataPlaneMount implements MountedEmulator {
  constructor(private readonly emulator: GammaEmulator) {}

  handle(request: EmulatorRequest, base: string): Promise<EmulatorReply> {
    return this.emulator.handleDataPlane(request, base);
  }
}

/**
 * The family's emulator as its control plane mount answers: the signed calls and the liveness H5
 * page, under /simulator/gamma-control. The H5 link is for the user's browser, so it is on the
 * gateway's public address rather than the one the gateway called.
 */
@Injectable()
export class GammaControlPlaneMount implements MountedEmulator {
  constructor(
    private readonly emulator: GammaEmulator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  handle(request: EmulatorRequest): Promise<EmulatorReply> {
    return this.emulator.handleControlPlane(request, `${this.config.publicBaseUrl}${GAMMA_CONTROL_MOUNT}`);
  }
}
