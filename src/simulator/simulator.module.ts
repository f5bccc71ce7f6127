import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { AlphaSimulatorModule } from '../families/alpha/simulator/alpha-simulator.module';
import { BetaSimulatorModule } from '../families/beta/simulator/beta-simulator.module';
import { GammaSimulatorModule } from '../families/gamma/simulator/gamma-simulator.module';
import { SimulatorSeeder } from './simulator-seeder.service';

/**
 * The embedded upstream simulator: speaks the three providers' protocols under
 * /simulator/<family> so the gateway works end to end with no network. Mounted only with SIMULATOR=on.
 */
@Module({})
export class SimulatorModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: SimulatorModule,
      imports: config.simulator ? [AlphaSimulatorModule, BetaSimulatorModule, GammaSimulatorModule] : [],
      providers: [SimulatorSeeder],
      exports: [SimulatorSeeder],
    };
  }
}
