import { Delete, Get, Head, Post } from '@nestjs/common';
import { emulatorController } from '../../shared/emulator-simulator';
import { GammaControlPlaneMount, GammaDataPlaneMount } from './gamma-simulator-mounts';

/** The embedded family C provider's data plane under /simulator/gamma: every route is the family's one emulator (emulator/gamma-emulator.ts). */
export class GammaSimulatorController extends emulatorController('gamma', GammaDataPlaneMount, [
  [Post('api/v3/contents/generations/tasks')],
  [Get('api/v3/contents/generations/tasks/:id')],
  [Delete('api/v3/contents/generations/tasks/:id')],
  [Get('videos/:file'), Head('videos/:file')],
]) {}

/**
 * The embedded family C provider's signed control plane (its body arrives raw, see bootstrap) and
 * its liveness H5 page under /simulator/gamma-control: the same emulator.
 */
export class GammaControlSimulatorController extends emulatorController('gamma-control', GammaControlPlaneMount, [
  [Post()],
  [Get(['h5', 'h5/pass', 'h5/fail'])],
]) {}
