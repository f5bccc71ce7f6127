import { ApiProperty, ApiPropertyOptional, IntersectionType, OmitType } from '@nestjs/swagger';
import { UnifiedTaskResponse } from '../../generations/dto/unified-task.dto';
import { FlatVideoDto } from '../../videos/dto/video.dto';
import { PROVIDER_USAGE_UNITS } from '../../upstream/provider-usage';
import { CustomerTaskDto } from '../customer/customer-views.dto';

export class TaskMoneyMovementDto {
  @ApiProperty({ example: 4500, description: 'quota units (positive)' }) quota: number;
  @ApiProperty({ description: 'the ledger row (GET /api/admin/logs)' }) log_id: number;
  @ApiPropertyOptional({ enum: ['consume', 'hold', 'refund', 'release'], description: 'admin view only: the ledger type' }) type?: string;
}

/** What the provider reported of its own cost of a task (operators only). */
export class ProviderUsageDto {
  @ApiProperty({ enum: PROVIDER_USAGE_UNITS, example: 'usd_ticks', description: "the provider's own unit" }) unit: string;
  @ApiProperty({ example: 500000000, description: 'the last amount it reported (at submit or a poll)' }) amount: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.05,
    description: 'USD, where the unit converts by itself (usd_ticks: 1e10 ticks = 1 USD); null for the others',
  })
  usd_estimate: number | null;
}

export class ProviderUsageAttemptDto extends ProviderUsageDto {
  @ApiProperty({ example: 0, description: 'which run of the task: 0 the first provider, 1 the next after a provider retry' })
  attempt: number;
  @ApiProperty({ example: 3, description: 'the channel whose provider made the report' }) channel_id: number;
}

export class TimelineEntryDto {
  @ApiProperty({ description: 'Unix seconds' }) at: number;
  @ApiProperty({ enum: ['created', 'submitted', 'status', 'progress', 'poll', 'charged', 'refunded', 'archived', 'webhook'] }) kind: string;
  @ApiPropertyOptional({ description: 'flat status for customers, unified for admins; a webhook attempt its delivery state' })
  status?: string;
  @ApiPropertyOptional({ minimum: 0, maximum: 100 }) progress?: number;
  @ApiPropertyOptional({ example: 'first poll' }) detail?: string;
  @ApiPropertyOptional({
    example: 'last_poll',
    description:
      'what `detail` says as a code for translation: first_poll, last_poll, quota_charged, quota_held, quota_refunded, quota_released, archived, archive_failed, webhook_attempt',
  })
  detail_code?: string;
  @ApiPropertyOptional({ type: Object, example: { count: 3 }, description: "`detail_code`'s parameters" })
  detail_params?: Record<string, string | number>;
}

export class TaskPollsDto {
  @ApiProperty({ description: 'upstream polls so far' }) count: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Unix seconds' }) first_at: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Unix seconds' }) last_at: number | null;
}

/** The provider's end of a task the gateway had given up at its deadline (operators only; the customer stays refunded). */
export class LateCompletionDto {
  @ApiProperty({ description: 'Unix seconds: when the gateway learnt it' }) at: number;
  @ApiProperty({ enum: ['succeeded', 'failed'], description: 'how the provider says the task ended' }) state: string;
  @ApiProperty({
    type: ProviderUsageDto,
    nullable: true,
    description: 'what the provider then reported of its own cost; null when nothing',
  })
  provider_usage: ProviderUsageDto | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "what it cost the operator in USD (the provider's figure, else its units at the channel's usd_per_unit, else the route's cost at what was asked); counted in the usage report's provider_cost_usd; null when unknown",
  })
  provider_cost_usd: number | null;
}

/** What both the customer's and the admin's task drawer show. */
export class TaskDetailFieldsDto {
  @ApiProperty({ type: String, nullable: true, description: 'the prompt the client gave' }) prompt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'why it failed (ours, never the provider verbatim)' }) failure_reason:
    string | null;
  @ApiProperty({ description: 'a poster frame can be fetched' }) thumbnail: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'the task it was made from (a remix, or `metadata.source_task_id`)' })
  source_task_id: string | null;
  @ApiProperty({ type: FlatVideoDto, description: 'exactly what GET /v1/videos/{id} answers' }) flat: FlatVideoDto;
  @ApiProperty({ type: UnifiedTaskResponse, description: 'exactly what GET /v1/video/generations/{id} answers' })
  unified: UnifiedTaskResponse;
  @ApiProperty({ type: TaskMoneyMovementDto, nullable: true }) charge: TaskMoneyMovementDto | null;
  @ApiProperty({ type: TaskMoneyMovementDto, nullable: true }) refund: TaskMoneyMovementDto | null;
  @ApiProperty({ type: [TimelineEntryDto], description: 'oldest first' }) timeline: TimelineEntryDto[];
  @ApiProperty({ type: TaskPollsDto }) polls: TaskPollsDto;
  @ApiProperty({ description: 'a cancel would be tried now: not ended, and not yet accepted or its provider can cancel it' })
  cancellable: boolean;
}

/** The customer's task drawer: the list row's fields (here `prompt` is the whole prompt) plus both forms, the money and the timeline. */
export class CustomerTaskDetailDto extends IntersectionType(
  CustomerTaskDto,
  OmitType(TaskDetailFieldsDto, ['prompt', 'failure_reason'] as const),
) {}

/** The admin's task drawer: everything, with the channel and the provider's id. */
export class AdminTaskDetailDto extends TaskDetailFieldsDto {
  @ApiProperty() task_id: string;
  @ApiProperty({ enum: ['SUBMITTING', 'NOT_START', 'QUEUED', 'IN_PROGRESS', 'SUCCESS', 'FAILURE', 'REJECTED'] }) status: string;
  @ApiProperty({ enum: ['queued', 'in_progress', 'completed', 'failed'] }) flat_status: string;
  @ApiProperty() progress: number;
  @ApiProperty() model: string;
  @ApiProperty() upstream_model: string;
  @ApiProperty() action: string;
  @ApiProperty({ description: 'quota charged' }) quota: number;
  @ApiProperty({ description: 'Unix seconds' }) created_at: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Unix seconds' }) finished_at: number | null;
  @ApiProperty() user_id: number;
  @ApiProperty({ type: String, nullable: true }) username: string | null;
  @ApiProperty({ type: Number, nullable: true }) channel_id: number | null;
  @ApiProperty({ type: String, nullable: true }) channel_name: string | null;
  @ApiProperty({ type: String, nullable: true }) upstream_task_id: string | null;
  @ApiProperty({ enum: ['pending', 'archived', 'failed'], type: String, nullable: true }) archive_status: string | null;
  @ApiProperty({ type: String, nullable: true, description: "why the archive's last try failed" }) archive_error: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "Unix seconds: when the provider's link to the video dies (finish time + the provider's output lifetime); null when it keeps it",
  })
  video_expires_at: number | null;
  @ApiProperty({ description: "the provider's link expired before the gateway could keep a copy: the video is gone (410 `video_expired`)" })
  video_expired: boolean;
  @ApiProperty({
    type: ProviderUsageDto,
    nullable: true,
    description:
      "what the provider of the task's latest attempt that reported one last reported of its own cost; null when none did. Never shown to customers",
  })
  provider_usage: ProviderUsageDto | null;
  @ApiProperty({
    type: [ProviderUsageAttemptDto],
    description:
      "each attempt's report (its last), against the channel that made it, first attempt first; a retried task has one per provider",
  })
  provider_usage_attempts: ProviderUsageAttemptDto[];
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    example: { credits: 160 },
    description: "the task's provider cost across its attempts, summed per unit",
  })
  provider_usage_total: Record<string, number>;
  @ApiProperty({
    type: LateCompletionDto,
    nullable: true,
    description:
      'a task given up at TASK_TIMEOUT_MS that its provider could not be made to stop is read every 10 minutes for 24 hours: how the provider said it ended then; null otherwise',
  })
  late_completion: LateCompletionDto | null;
  @ApiProperty({ description: 'the client deleted it on /v1/videos' }) deleted: boolean;
  @ApiProperty({ description: 'completed, not deleted and not expired: /api/admin/tasks/{task_id}/content plays it' }) has_video: boolean;
}
