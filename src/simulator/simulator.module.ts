import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { BillingModule } from '../billing/billing.module';
import type { AppConfig } from '../config/app-config';
import { FAMILIES } from '../families/family-registry';
import { UpstreamModule } from '../upstream/upstream.module';
import { SimulatorMediaController } from './simulator-media.controller';
import { SimulatorSeeder } from './simulator-seeder.service';

/**
 * The embedded upstream simulator: each family's fake provider under /simulator/<platform>, so the
 * gateway works end to end with no network, plus sample media under /simulator/media. Mounted only
 * with SIMULATOR=on.
 */
@Module({})
export class SimulatorModule {
  static forRoot(config: AppConfig): DynamicModule {
    const simulators = FAMILIES.flatMap((family) => (family.simulator ? [family.simulator.module] : []));
    return {
      module: SimulatorModule,
      imports: [AuthModule, BillingModule, UpstreamModule, ...(config.simulator ? simulators : [])],
      controllers: config.simulator ? [SimulatorMediaController] : [],
      providers: [SimulatorSeeder],
      exports: [SimulatorSeeder],
    };
  }
}
