import { ProviderPushMetrics } from '../metrics/provider-push-metrics';
import { ProviderReads } from './push/provider-reads';
import { ProviderCallbackLinks } from './push/provider-callback-links';
import { TaskWakeRepository } from './repositories/task-wake.repository';
import { CallbackWakeUps } from './push/callback-wake-ups';
import { ProviderCallbackIntake } from './push/provider-callback-intake';
import { ProviderCallbacksController } from './push/provider-callbacks.controller';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { BillingModule } from '../billing/billing.module';
import { FamiliesModule } from '../families/families.module';
import { HousekeepingModule } from '../housekeeping/housekeeping.module';
import { JobsModule } from '../jobs/jobs.module';
import { MetricsRegistryModule } from '../metrics/metrics-registry';
import { UpstreamModule } from '../upstream/upstream.module';
import { LateCompletionWatch } from './deadline/late-completion-watch';
import { TaskDeadline } from './deadline/task-deadline';
import { DispatchPlanner } from './dispatch/dispatch-planner.service';
import { PendingSubmitWrites } from './pending-submit-writes';
import { HandToProvider } from './submit/hand-to-provider';
import { SubmitAttempts } from './submit/submit-attempts';
import { SubmitChannelReports } from './submit/submit-channel-reports';
import { SubmitLeases } from './submit/submit-leases';
import { SubmitHold } from './submit/submit-hold';
import { SubmitIdempotency } from './submit/submit-idempotency';
import { SubmitSettlement } from './submit/submit-settlement';
import { ProviderCancel } from './provider-cancel';
import { ProviderRetry } from './retry/provider-retry.service';
import { RouteDrafting } from './route-drafting.service';
import { SubmitPipeline } from './submit-pipeline.service';
import { TaskCancelService } from './task-cancel.service';
import { TaskEntity } from './task.entity';
import { TaskEventEntity } from './task-event.entity';
import { TaskEndHooks } from './task-end-hooks';
import { TaskLateWatchRepository } from './repositories/task-late-watch.repository';
import { TaskLeaseRepository } from './repositories/task-lease.repository';
import { TaskReadRepository } from './repositories/task-read.repository';
import { TaskStateRepository } from './repositories/task-state.repository';
import { TaskStatsRepository } from './repositories/task-stats.repository';
import { TaskSubmitRepository } from './repositories/task-submit.repository';
import { TaskSweepRepository } from './repositories/task-sweep.repository';
import { TaskMetrics } from './task-metrics.service';
import { InFlightMetrics } from './in-flight-metrics.service';
import { TaskQueries } from './task-queries.service';
import { TaskSubmitService } from './task-submit.service';
import { TaskSubmitFields } from './task-submit-fields';
import { TaskSyncService } from './task-sync.service';
import { TaskTransitionsService } from './task-transitions.service';
import { TaskSettlementService } from './settlement/task-settlement.service';
import { TaskCostLookup } from './settlement/task-cost-inputs';
import { TaskHousekeeping } from './task-housekeeping';
import { UsageReports } from './usage-reports.service';
import { TaskUsageRepository } from './repositories/task-usage.repository';

/** The task record both API surfaces share, its state machine, the submit pipeline, sync, metrics and the usage reports. */
@Module({
  imports: [
    TypeOrmModule.forFeature([TaskEntity, TaskEventEntity]),
    AuthModule,
    BillingModule,
    UpstreamModule,
    FamiliesModule,
    JobsModule,
    MetricsRegistryModule,
    HousekeepingModule,
  ],
  providers: [
    TaskReadRepository,
    TaskStatsRepository,
    TaskSubmitRepository,
    TaskStateRepository,
    TaskLeaseRepository,
    TaskLateWatchRepository,
    TaskSweepRepository,
    TaskUsageRepository,
    UsageReports,
    TaskQueries,
    TaskMetrics,
    InFlightMetrics,
    TaskEndHooks,
    TaskSubmitFields,
    TaskTransitionsService,
    PendingSubmitWrites,
    SubmitIdempotency,
    SubmitHold,
    SubmitSettlement,
    SubmitLeases,
    SubmitChannelReports,
    HandToProvider,
    SubmitAttempts,
    TaskSubmitService,
    DispatchPlanner,
    RouteDrafting,
    SubmitPipeline,
    TaskSyncService,
    TaskDeadline,
    LateCompletionWatch,
    ProviderRetry,
    ProviderCancel,
    TaskCancelService,
    TaskHousekeeping,
    TaskCostLookup,
    TaskSettlementService,
    ProviderPushMetrics,
    ProviderReads,
    ProviderCallbackLinks,
    TaskWakeRepository,
    CallbackWakeUps,
    ProviderCallbackIntake,
  ],
  controllers: [ProviderCallbacksController],
  exports: [
    UsageReports,
    TaskQueries,
    TaskReadRepository,
    TaskStateRepository,
    TaskSweepRepository,
    TaskMetrics,
    SubmitPipeline,
    TaskEndHooks,
    TaskCancelService,
    TaskSubmitFields,
    TaskTransitionsService,
    TaskSettlementService,
  ],
})
export class TasksModule {}
