import { ApiProperty } from '@nestjs/swagger';
import { LOG_TYPES } from '../../billing/log.entity';
import { FAMILY_PLATFORMS } from '../../families/family-registry';
import { ApiKeyViewDto, IssuedApiKeyDto } from './api-key-view.dto';
import { ApiLedgerDetailCode, ApiLedgerDetailParams } from './ledger-detail-docs';

/** Answers of the admin API, named as the product contract names them (Swagger only; views build them). */

export class CreatedUserDto {
  @ApiProperty({ example: 2 }) id: number;
  @ApiProperty({ example: 'acme' }) username: string;
  @ApiProperty({ example: 'default' }) group: string;
  @ApiProperty({ example: 100000, description: 'balance in quota units' }) quota: number;
  @ApiProperty({ example: 0 }) used_quota: number;
}

export class UserDto extends CreatedUserDto {
  @ApiProperty({ enum: ['user', 'admin'] }) role: string;
  @ApiProperty({ enum: ['active', 'disabled'] }) status: string;
  @ApiProperty({ description: 'admin approval of real-person verification' }) verification_enabled: boolean;
  @ApiProperty({ example: 0, description: 'requests per minute on /v1/*, over every instance (0 = unlimited)' }) rpm: number;
  @ApiProperty({ description: 'Unix seconds' }) created_at: number;
}

export class UserListDto {
  @ApiProperty({ type: [UserDto] }) data: UserDto[];
  @ApiProperty() total: number;
}

export class BalanceDto {
  @ApiProperty({ example: 2 }) id: number;
  @ApiProperty({ example: 150000, description: 'the balance afterwards' }) quota: number;
}

/** A key just issued (the key shown only here). */
export class IssuedKeyDto extends IssuedApiKeyDto {}

export class ApiKeyDto extends ApiKeyViewDto {}

export class ApiKeyListDto {
  @ApiProperty({ type: [ApiKeyDto] }) data: ApiKeyDto[];
}

export class ChannelCreatedDto {
  @ApiProperty({ example: 3 }) id: number;
}

export class ChannelBreakerDto {
  @ApiProperty({
    enum: ['closed', 'half_open', 'open'],
    description: 'open: no submits until retry_at; half_open: past it, one submit at a time tries the channel',
  })
  state: string;
  @ApiProperty({ description: 'provider faults in a row since the provider last accepted a submit on the channel' }) failures: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Unix seconds: when it last opened; null while closed' }) opened_at:
    number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Unix seconds: from when a submit may try the channel again; null while closed',
  })
  retry_at: number | null;
}

export class ChannelDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ enum: FAMILY_PLATFORMS }) platform: string;
  @ApiProperty() base_url: string;
  @ApiProperty({ type: [String] }) models: string[];
  @ApiProperty({ type: Object, nullable: true, example: { 'alpha/v6': 'v6' } }) model_mapping: Record<string, string> | null;
  @ApiProperty({ type: Object, nullable: true, description: 'the settings its platform marks secret read as ***' }) settings: Record<
    string,
    unknown
  > | null;
  @ApiProperty({ type: [String], nullable: true }) groups: string[] | null;
  @ApiProperty() priority: number;
  @ApiProperty() weight: number;
  @ApiProperty({ enum: ['enabled', 'disabled'] }) status: string;
  @ApiProperty() request_count: number;
  @ApiProperty() error_count: number;
  @ApiProperty() error_rate: number;
  @ApiProperty({ type: String, nullable: true }) last_error: string | null;
  @ApiProperty({ description: 'Unix seconds' }) created_at: number;
  @ApiProperty({ type: ChannelBreakerDto, description: 'its breaker, as the instance answering knows it' }) breaker: ChannelBreakerDto;
}

export class ChannelListDto {
  @ApiProperty({ type: [ChannelDto] }) data: ChannelDto[];
}

export class LogDto {
  @ApiProperty() id: number;
  @ApiProperty({ enum: LOG_TYPES }) type: string;
  @ApiProperty() user_id: number;
  @ApiProperty({ type: String, nullable: true }) task_id: string | null;
  @ApiProperty({ type: String, nullable: true }) model: string | null;
  @ApiProperty({ description: 'signed quota movement' }) quota: number;
  @ApiProperty() balance_after: number;
  @ApiProperty({ type: Number, nullable: true }) channel_id: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'a refund names its reason' }) detail: string | null;
  @ApiLedgerDetailCode() detail_code: string | null;
  @ApiLedgerDetailParams() detail_params: Record<string, string | number> | null;
  @ApiProperty({ description: 'Unix seconds' }) created_at: number;
}

export class LogTotalsDto {
  @ApiProperty() topup: number;
  @ApiProperty() consume: number;
  @ApiProperty() refund: number;
  @ApiProperty() adjust: number;
  @ApiProperty({ description: "charges of submits not yet accepted by the provider (never in the customer's ledger)" }) hold: number;
  @ApiProperty({ description: "holds given back because the provider refused the submit (never in the customer's ledger)" })
  release: number;
  @ApiProperty({ description: 'log rows over the filter' }) count: number;
}

export class LogListDto {
  @ApiProperty({ type: [LogDto], description: 'newest first' }) data: LogDto[];
  @ApiProperty() total: number;
  @ApiProperty({ type: LogTotalsDto, description: 'signed quota per type over the same filter' }) totals: LogTotalsDto;
}

export class AdminTaskDto {
  @ApiProperty() id: number;
  @ApiProperty({ example: 'task_3kT9fQ2mXb7LcV1pZ8wR4yNd' }) task_id: string;
  @ApiProperty() user_id: number;
  @ApiProperty() group: string;
  @ApiProperty({ enum: FAMILY_PLATFORMS }) platform: string;
  @ApiProperty() model: string;
  @ApiProperty({ type: String, nullable: true }) upstream_model: string | null;
  @ApiProperty() action: string;
  @ApiProperty({ type: Number, nullable: true }) channel_id: number | null;
  @ApiProperty({ type: String, nullable: true }) upstream_task_id: string | null;
  @ApiProperty({ enum: ['SUBMITTING', 'NOT_START', 'QUEUED', 'IN_PROGRESS', 'SUCCESS', 'FAILURE', 'REJECTED'] }) status: string;
  @ApiProperty({ enum: ['queued', 'in_progress', 'completed', 'failed'] }) flat_status: string;
  @ApiProperty() progress: number;
  @ApiProperty() quota: number;
  @ApiProperty({ type: String, nullable: true }) fail_reason: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'same as fail_reason' }) failure_reason: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'the prompt, at most 120 characters' }) prompt: string | null;
  @ApiProperty() poll_failures: number;
  @ApiProperty({ description: 'Unix seconds (0 when none)' }) next_poll_at: number;
  @ApiProperty({ description: 'Unix seconds (0 while not yet happened)' }) submit_time: number;
  @ApiProperty({ description: 'Unix seconds (0 while not yet happened)' }) start_time: number;
  @ApiProperty({ description: 'Unix seconds (0 while not yet happened)' }) finish_time: number;
  @ApiProperty({ description: 'Unix seconds' }) created_at: number;
  @ApiProperty({ description: 'Unix seconds' }) updated_at: number;
  @ApiProperty({ description: 'the client deleted it on /v1/videos' }) deleted: boolean;
  @ApiProperty({ description: 'completed, not deleted and not expired: /api/admin/tasks/{task_id}/content plays it' }) has_video: boolean;
  @ApiProperty({
    description: "completed, but its provider's link expired before the gateway could keep a copy: the video is gone (410 `video_expired`)",
  })
  video_expired: boolean;
  @ApiProperty({ description: 'its poll has been due for over a minute' }) stuck: boolean;
  @ApiProperty({
    enum: ['pending', 'archived', 'failed'],
    nullable: true,
    type: String,
    description: "the gateway's copy of the finished video (null before SUCCESS)",
  })
  archive_status: string | null;
  @ApiProperty({ description: 'a poster frame is at /api/admin/tasks/{task_id}/thumbnail' }) has_thumbnail: boolean;
}

export class AdminTaskListDto {
  @ApiProperty({ type: [AdminTaskDto], description: 'newest first unless `sort` says otherwise' }) data: AdminTaskDto[];
  @ApiProperty() total: number;
}
