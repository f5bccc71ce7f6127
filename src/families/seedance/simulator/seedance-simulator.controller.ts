import { Delete, Get, Head, Post } from '@nestjs/common';
import { emulatorController } from '../../shared/emulator-simulator';
import { SeedanceEmulator } from '../emulator/seedance-emulator';

const TASKS = 'api/v3/contents/generations/tasks';

/** The embedded Ark API under /simulator/seedance: every route is the family's one emulator (emulator/seedance-emulator.ts). */
export class SeedanceSimulatorController extends emulatorController(
  'seedance',
  SeedanceEmulator,
  [
    [Post(TASKS), Get(TASKS)].map((route) => [route]),
    [Get(`${TASKS}/:id`), Delete(`${TASKS}/:id`)].map((route) => [route]),
    [[Get('tos/:file'), Head('tos/:file')]],
  ].flat(),
) {}
