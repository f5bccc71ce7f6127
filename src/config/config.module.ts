import { DynamicModule, Global, Module } from '@nestjs/common';
import { Clock } from '../common/runtime/clock';
import { APP_CONFIG, AppConfig } from './app-config';
import { INSTANCE_ID, newInstanceId } from './instance-id';

/** The validated configuration, the clock and this process's identity (in leases). */
// Global: infrastructure every module reads, like the configuration itself; it depends on nothing.
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }, Clock, { provide: INSTANCE_ID, useFactory: newInstanceId }],
      exports: [APP_CONFIG, Clock, INSTANCE_ID],
    };
  }
}
