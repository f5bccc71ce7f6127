import { Injectable } from '@nestjs/common';
import { UsersService } from '../../auth/users.service';
import type { LogEntity } from '../../billing/log.entity';
import { LogsService } from '../../billing/logs.service';
import { toUnixSeconds } from '../../common/runtime/clock';
import { toUnifiedTaskResponse } from '../../generations/unified-task.view';
import { SignedLinksService } from '../../storage/signed-links.service';
import type { ArchiveSummary } from '../../storage/video-archive.entity';
import { VideoArchiveRepository } from '../../storage/video-archive.repository';
import { hasPlayableVideo } from '../../tasks/task-admin.view';
import type { TaskEntity } from '../../tasks/task.entity';
import type { LateCompletion } from '../../tasks/task-usage';
import { TaskCancelService } from '../../tasks/task-cancel.service';
import { TaskQueries } from '../../tasks/task-queries.service';
import { toFlatStatus } from '../../tasks/task-status';
import { ChannelsService } from '../../upstream/channels.service';
import { providerUsageUsd } from '../../upstream/provider-usage';
import type { ProviderUsage } from '../../upstream/upstream-adapter';
import { toFlatVideo } from '../../videos/flat-video.view';
import { WebhookDeliveryLogRepository } from '../../webhooks/webhook-delivery-log.repository';
import { toCustomerTaskView } from '../customer/customer-tasks.service';
import type {
  AdminTaskDetailDto,
  CustomerTaskDetailDto,
  LateCompletionDto,
  ProviderUsageDto,
  TaskDetailFieldsDto,
  TaskMoneyMovementDto,
} from './task-detail.dto';
import { Audience, buildTimeline } from './task-timeline';

/** The task drawer of the console: both API forms of a task, its money and its timeline. */
@Injectable()
export class TaskDetailService {
  constructor(
    private readonly tasks: TaskQueries,
    private readonly logs: LogsService,
    private readonly links: SignedLinksService,
    private readonly webhooks: WebhookDeliveryLogRepository,
    private readonly users: UsersService,
    private readonly channels: ChannelsService,
    private readonly archives: VideoArchiveRepository,
    private readonly cancels: TaskCancelService,
  ) {}

  /** The caller's own visible task; 404 for anyone else's (as on the API). */
  async forCustomer(userId: number, taskId: string): Promise<CustomerTaskDetailDto> {
    const task = await this.tasks.findOwned(userId, taskId);
    const archive = await this.archives.summaryOf(task.id);
    return { ...toCustomerTaskView(task, archive), ...(await this.fields(task, archive, 'customer')) };
  }

  async forAdmin(taskId: string): Promise<AdminTaskDetailDto> {
    const task = await this.tasks.findAny(taskId);
    const archive = await this.archives.summaryOf(task.id);
    const [fields, user, channel, attempts] = await Promise.all([
      this.fields(task, archive, 'admin'),
      this.users.findById(task.userId),
      task.channelId !== null ? this.channels.get(task.channelId).catch(() => null) : Promise.resolve(null),
      this.tasks.providerUsageOf(task.id),
    ]);
    return {
      task_id: task.taskId,
      status: task.status,
      flat_status: toFlatStatus(task.status),
      progress: task.progress,
      model: task.model,
      upstream_model: task.upstreamModel,
      action: task.action,
      quota: task.quota,
      created_at: toUnixSeconds(task.createdAt),
      finished_at: task.finishTime ? toUnixSeconds(task.finishTime) : null,
      user_id: task.userId,
      username: user?.username ?? null,
      channel_id: task.channelId,
      channel_name: channel?.name ?? null,
      upstream_task_id: task.upstreamTaskId,
      archive_status: archive.status,
      archive_error: archive.error,
      video_expires_at: task.status === 'SUCCESS' && archive.expiresAt !== null ? toUnixSeconds(archive.expiresAt) : null,
      video_expired: task.status === 'SUCCESS' && archive.videoExpired,
      ...providerUsageViews(attempts, task.providerUsage),
      late_completion: lateCompletionView(task.lateCompletion),
      deleted: task.deletedAt !== null,
      has_video: hasPlayableVideo(task) && !archive.videoExpired,
      ...fields,
      // The operator sees every reason, also a refused submit's.
      failure_reason: task.failReason,
    };
  }

  private async fields(task: TaskEntity, archive: ArchiveSummary, audience: Audience): Promise<TaskDetailFieldsDto> {
    const [events, ledger, webhooks] = await Promise.all([
      this.tasks.eventsOf(task.id),
      this.logs.forTask(task.taskId),
      this.webhooks.attemptsForTask(task.taskId),
    ]);
    const charges = audience === 'admin' ? ['consume', 'hold'] : ['consume'];
    const refunds = audience === 'admin' ? ['refund', 'release'] : ['refund'];
    return {
      prompt: task.prompt ?? promptOf(task),
      failure_reason: task.status === 'FAILURE' ? task.failReason : null,
      thumbnail: task.status === 'SUCCESS' && archive.hasThumbnail,
      source_task_id: typeof task.properties?.source_task_id === 'string' ? task.properties.source_task_id : null,
      flat: toFlatVideo(task, this.links),
      unified: toUnifiedTaskResponse(task, this.links, audience === 'admin' ? 'operator' : 'customer'),
      charge: movement(ledger, charges, audience),
      refund: movement(ledger, refunds, audience),
      timeline: buildTimeline({ task, archivedAt: archive.archivedAt, events, ledger, webhooks }, audience),
      cancellable: this.cancels.cancellable(task),
      polls: {
        count: task.pollCount,
        first_at: task.firstPollAt ? toUnixSeconds(task.firstPollAt) : null,
        last_at: task.lastPollAt ? toUnixSeconds(task.lastPollAt) : null,
      },
    };
  }
}

/** The provider's reported cost, with what it is in USD where its unit says so. */
const toProviderUsageView = (usage: ProviderUsage): ProviderUsageDto => ({
  unit: usage.unit,
  amount: usage.amount,
  usd_estimate: providerUsageUsd(usage.unit, usage.amount),
});

/**
 * The task's provider cost: each attempt's report against its channel, their sum per unit, and the
 * latest attempt's as `provider_usage` (a task written before reports were kept per attempt: its own column).
 */
function providerUsageViews(
  attempts: Array<{ attempt: number; channelId: number; unit: string; amount: number }>,
  legacy: ProviderUsage | null,
): Pick<AdminTaskDetailDto, 'provider_usage' | 'provider_usage_attempts' | 'provider_usage_total'> {
  const total: Record<string, number> = {};
  for (const row of attempts) total[row.unit] = (total[row.unit] ?? 0) + row.amount;
  const latest = attempts.at(-1);
  const current = latest ? { unit: latest.unit as ProviderUsage['unit'], amount: latest.amount } : legacy;
  if (!latest && legacy) total[legacy.unit] = legacy.amount;
  return {
    provider_usage: current ? toProviderUsageView(current) : null,
    provider_usage_attempts: attempts.map((row) => ({
      attempt: row.attempt,
      channel_id: row.channelId,
      ...toProviderUsageView({ unit: row.unit as ProviderUsage['unit'], amount: row.amount }),
    })),
    provider_usage_total: total,
  };
}

function lateCompletionView(late: LateCompletion | null): LateCompletionDto | null {
  if (!late) return null;
  return {
    at: toUnixSeconds(late.at),
    state: late.state,
    provider_usage: late.providerUsage ? toProviderUsageView(late.providerUsage) : null,
    provider_cost_usd: late.providerCostUsd ?? null,
  };
}

function movement(ledger: LogEntity[], types: string[], audience: Audience): TaskMoneyMovementDto | null {
  const row = ledger.find((entry) => types.includes(entry.type));
  if (!row) return null;
  return { quota: Math.abs(row.quota), log_id: row.id, ...(audience === 'admin' ? { type: row.type } : {}) };
}

/** Tasks recorded before the prompt had its own column keep it in the input echo. */
function promptOf(task: TaskEntity): string | null {
  const input = task.properties?.input ?? task.request?.prompt;
  return typeof input === 'string' && input !== '' ? input : null;
}
