import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { SimulatorSeeder } from './simulator-seeder.service';

/**
 * The embedded upstream simulator: speaks the three providers' protocols under /simulator/<family>
 * so the gateway works end to end with no network. Mounted only with SIMULATOR=on.
 */
@Module({})
export class SimulatorModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: SimulatorModule,
      controllers: config.simulator ? SIMULATOR_CONTROLLERS : [],
      providers: [SimulatorSeeder, ...SIMULATOR_PROVIDERS],
      exports: [SimulatorSeeder],
    };
  }
}

/** Each family's simulator adds its controllers and state here. */
export const SIMULATOR_CONTROLLERS: Array<new (...args: never[]) => unknown> = [];
export const SIMULATOR_PROVIDERS: Array<new (...args: never[]) => unknown> = [];
