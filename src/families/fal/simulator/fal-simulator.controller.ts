import { All } from '@nestjs/common';
import { emulatorController } from '../../shared/emulator-simulator';
import { FalEmulator } from '../emulator/fal-emulator';

/** The embedded fal queue under /simulator/fal: every path (endpoint ids have any depth) is the family's one emulator. */
export class FalSimulatorController extends emulatorController('fal', FalEmulator, [[All('*path')]]) {}
