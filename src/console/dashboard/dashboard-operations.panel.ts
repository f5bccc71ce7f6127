import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { HousekeepingStats } from '../../housekeeping/housekeeping-stats.service';
import { VideoArchiveJob } from '../../storage/video-archive.job';
import { VideoArchiveRepository } from '../../storage/video-archive.repository';
import { TaskQueries } from '../../tasks/task-queries.service';
import { WebhookDeliveryLogRepository } from '../../webhooks/webhook-delivery-log.repository';
import { WebhookEndpointRepository } from '../../webhooks/webhook-endpoint.repository';
import { STUCK_AFTER_MS } from '../admin-tasks.controller';
import type { DashboardDto } from './dashboard.dto';

const seconds = (ms: number): number => Math.floor(ms / 1000);

/** The dashboard's upkeep panels: stuck work, failing webhooks, the video store, what housekeeping removed. */
@Injectable()
export class DashboardOperationsPanel {
  constructor(
    private readonly tasks: TaskQueries,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryLogRepository,
    private readonly archives: VideoArchiveRepository,
    private readonly archiveJob: VideoArchiveJob,
    private readonly housekeeping: HousekeepingStats,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async panels(now: number, fromMs: number): Promise<Pick<DashboardDto, 'stuck_tasks' | 'webhooks' | 'video_store' | 'housekeeping'>> {
    const [stuck, failingEndpoints, failedDeliveries, stored] = await Promise.all([
      this.tasks.stuckSummary(now, STUCK_AFTER_MS),
      this.endpoints.countFailing(),
      this.deliveries.countFailedSince(fromMs),
      this.archives.totals(),
    ]);
    return {
      stuck_tasks: {
        count: stuck.count,
        oldest_age_s: stuck.oldestCreatedAt === null ? null : Math.max(0, seconds(now - stuck.oldestCreatedAt)),
      },
      webhooks: { failing_endpoints: failingEndpoints, failed_deliveries: failedDeliveries },
      video_store: { kind: this.archiveJob.storeKind, bytes: stored.bytes, objects: stored.objects },
      housekeeping: this.housekeepingFigure(),
    };
  }

  /** What housekeeping removed since this instance started, and the retention in force. */
  private housekeepingFigure(): DashboardDto['housekeeping'] {
    const { rows, bytes, tasks } = this.housekeeping.totals();
    return {
      rows_deleted: rows,
      bytes_deleted: bytes,
      tasks_deleted: tasks,
      task_retention_s: Math.floor(this.config.taskRetentionMs / 1000),
    };
  }
}
