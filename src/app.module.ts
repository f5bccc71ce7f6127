import { DynamicModule, Module } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { AuthModule } from './auth/auth.module';
import { BillingModule } from './billing/billing.module';
import { RequestValidationPipe } from './common/http/validation';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ConsoleModule } from './console/console.module';
import { DatabaseModule } from './database/database.module';
import { FamiliesModule } from './families/families.module';
import { GenerationsModule } from './generations/generations.module';
import { HealthModule } from './health/health.module';
import { TaskRetentionModule } from './retention/task-retention.module';
import { MetricsModule } from './metrics/metrics.module';
import { SharedStateModule } from './shared-state/shared-state.module';
import { SimulatorModule } from './simulator/simulator.module';
import { TasksModule } from './tasks/tasks.module';
import { TelemetryModule } from './telemetry/telemetry.module';
import { UpstreamModule } from './upstream/upstream.module';
import { VerificationModule } from './verification/verification.module';
import { VideosModule } from './videos/videos.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/**
 * Infrastructure first (config, scheduler, database, shared state), then the feature modules, each importing
 * what it uses: surfaces and console -> tasks -> families -> verification -> upstream, billing, auth.
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        ScheduleModule.forRoot(),
        DatabaseModule.forRoot(config),
        SharedStateModule,
        AuthModule,
        BillingModule,
        UpstreamModule,
        VerificationModule,
        FamiliesModule,
        TasksModule,
        MetricsModule,
        VideosModule,
        GenerationsModule,
        WebhooksModule,
        TaskRetentionModule,
        ConsoleModule,
        SimulatorModule.forRoot(config),
        HealthModule,
        TelemetryModule,
      ],
      // Every body, query and param DTO of every controller, a new one included, is validated by the one pipe.
      providers: [{ provide: APP_PIPE, useClass: RequestValidationPipe }],
    };
  }
}
