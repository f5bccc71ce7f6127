import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { StorageModule } from '../storage/storage.module';
import { TasksModule } from '../tasks/tasks.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { HousekeepingModule } from '../housekeeping/housekeeping.module';
import { RetainedTaskRows } from './retained-task-rows';
import { TaskRetentionJob } from './task-retention.job';

/** TASK_RETENTION: deleting old ended tasks asks each owning module (tasks, storage, webhooks) to remove its part. */
@Module({
  imports: [TasksModule, StorageModule, WebhooksModule, HousekeepingModule, JobsModule],
  providers: [RetainedTaskRows, TaskRetentionJob],
  exports: [TaskRetentionJob],
})
export class TaskRetentionModule {}
