import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { BillingModule } from '../billing/billing.module';
import { CatalogFeedModule } from '../catalog-feed/catalog-feed.module';
import { FamiliesModule } from '../families/families.module';
import { HousekeepingModule } from '../housekeeping/housekeeping.module';
import { TasksModule } from '../tasks/tasks.module';
import { UpstreamModule } from '../upstream/upstream.module';
import { VerificationModule } from '../verification/verification.module';
import { VideosModule } from '../videos/videos.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { StorageModule } from '../storage/storage.module';
import { AccountSignInThrottle } from './account-sign-in-throttle';
import { TaskDetailService } from './task-detail/task-detail.service';
import { AdminDashboardController } from './dashboard/admin-dashboard.controller';
import { DashboardOperationsPanel } from './dashboard/dashboard-operations.panel';
import { DashboardService } from './dashboard/dashboard.service';
import { DashboardUpstreamPanel } from './dashboard/dashboard-upstream.panel';
import { AdminWebhooksController } from './admin-webhooks.controller';
import { CustomerWebhooksController } from './customer/customer-webhooks.controller';
import { AdminChannelsController } from './admin-channels.controller';
import { AdminPlatformsController } from './admin-platforms.controller';
import { AdminKeysController } from './admin-keys.controller';
import { AdminLogsController } from './admin-logs.controller';
import { AdminPricesController } from './admin-prices.controller';
import { AdminModelsController } from './admin-models.controller';
import { AdminTasksController } from './admin-tasks.controller';
import { AdminUsageController } from './admin-usage.controller';
import { AdminUsersController } from './admin-users.controller';
import { AdminRedemptionCodesController } from './redemption/admin-redemption-codes.controller';
import { CustomerRedeemController } from './redemption/customer-redeem.controller';
import { ConsoleAuthController } from './console-auth.controller';
import { ConsoleAuthService } from './console-auth.service';
import { ChannelUpstreamReadsService } from './channel-upstream-reads.service';
import { ConsoleChannelProbeService } from './console-channel-probe.service';
import { ConsoleCustomerGuard } from './console-customer.guard';
import { ConsoleSessionEntity } from './console-session.entity';
import { ConsoleSessionMiddleware } from './console-session.middleware';
import { ConsoleSessionRepository } from './console-session.repository';
import { ConsoleSessionsService } from './console-sessions.service';
import { ConsoleStaticController } from './console-static.controller';
import { SignInThrottleGuard } from './sign-in-throttle.guard';
import { CustomerAccountController } from './customer/customer-account.controller';
import { CustomerKeysController } from './customer/customer-keys.controller';
import { CustomerLogsController } from './customer/customer-logs.controller';
import { CustomerLogsService } from './customer/customer-logs.service';
import { CustomerTasksController } from './customer/customer-tasks.controller';
import { CustomerTasksService } from './customer/customer-tasks.service';
import { CustomerUsageService } from './customer/customer-usage.service';
import { CustomerOverviewService } from './customer/customer-overview.service';
import { CustomerVerificationController } from './customer/customer-verification.controller';
import { CustomerVideoController } from './customer/customer-video.controller';
import { ConsoleHousekeeping } from './console-housekeeping';

/** The admin API, and the web console served at /console with its session-cookie API. */
@Module({
  imports: [
    TypeOrmModule.forFeature([ConsoleSessionEntity]),
    AuthModule,
    BillingModule,
    UpstreamModule,
    FamiliesModule,
    CatalogFeedModule,
    TasksModule,
    VideosModule,
    VerificationModule,
    WebhooksModule,
    StorageModule,
    HousekeepingModule,
  ],
  controllers: [
    AdminUsersController,
    AdminKeysController,
    AdminChannelsController,
    AdminPlatformsController,
    AdminLogsController,
    AdminTasksController,
    AdminUsageController,
    AdminPricesController,
    AdminModelsController,
    AdminRedemptionCodesController,
    ConsoleStaticController,
    ConsoleAuthController,
    CustomerAccountController,
    CustomerKeysController,
    CustomerTasksController,
    CustomerVideoController,
    CustomerLogsController,
    CustomerVerificationController,
    CustomerWebhooksController,
    CustomerRedeemController,
    AdminWebhooksController,
    AdminDashboardController,
  ],
  providers: [
    ConsoleSessionRepository,
    ConsoleSessionsService,
    ConsoleAuthService,
    ConsoleSessionMiddleware,
    ConsoleCustomerGuard,
    ConsoleChannelProbeService,
    ChannelUpstreamReadsService,
    SignInThrottleGuard,
    AccountSignInThrottle,
    CustomerTasksService,
    CustomerUsageService,
    CustomerLogsService,
    TaskDetailService,
    CustomerOverviewService,
    DashboardService,
    DashboardUpstreamPanel,
    DashboardOperationsPanel,
    ConsoleHousekeeping,
  ],
})
export class ConsoleModule implements NestModule {
  /** A console session cookie counts on the admin API and the console API (sign-in itself needs none). */
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(ConsoleSessionMiddleware)
      .exclude({ path: 'console/api/session', method: RequestMethod.POST }, { path: 'console/api/signup', method: RequestMethod.POST })
      .forRoutes({ path: 'api/admin/*path', method: RequestMethod.ALL }, { path: 'console/api/*path', method: RequestMethod.ALL });
  }
}
