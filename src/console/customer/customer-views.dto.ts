import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiKeyViewDto } from '../dto/api-key-view.dto';
import { ApiLedgerDetailCode, ApiLedgerDetailParams } from '../dto/ledger-detail-docs';

/** Response shapes of the customer console API (documented in Swagger under `console`). */

export class CustomerAccountDto {
  @ApiProperty() id: number;
  @ApiProperty() username: string;
  @ApiProperty() group: string;
  @ApiProperty({ description: 'spendable balance, quota units' }) quota: number;
  @ApiProperty() used_quota: number;
  @ApiProperty() verification_enabled: boolean;
}

export class UsageDayDto {
  @ApiProperty({ example: '2026-01-31', description: "the day in the viewer's time zone" }) date: string;
  @ApiProperty({ description: 'Unix seconds of the start of the day' }) start: number;
  @ApiProperty() consumed: number;
  @ApiProperty() refunded: number;
  @ApiProperty() topped_up: number;
  @ApiProperty() adjusted: number;
  @ApiProperty({ description: 'consumed minus refunded' }) spent: number;
  @ApiProperty({ description: 'tasks charged that day' }) tasks: number;
  @ApiProperty({ description: 'balance at the end of the day' }) balance: number;
}

export class UsageDto {
  @ApiProperty({ type: [UsageDayDto], description: 'oldest first, today last' }) data: UsageDayDto[];
  @ApiProperty() quota: number;
  @ApiProperty() used_quota: number;
}

export class ModelsDto {
  @ApiProperty({ type: [String], description: "models the customer's group can use" }) data: string[];
  @ApiProperty({ type: [String], description: 'models the customer has used' }) used: string[];
}

export class CustomerKeyDto extends ApiKeyViewDto {}

export class CreatedKeyDto extends CustomerKeyDto {
  @ApiProperty({ description: 'the key itself, shown only in this response' }) key: string;
}

export class CustomerKeyListDto {
  @ApiProperty({ type: [CustomerKeyDto] }) data: CustomerKeyDto[];
}

export class CustomerTaskDto {
  @ApiProperty() task_id: string;
  @ApiProperty() model: string;
  @ApiProperty() action: string;
  @ApiProperty({ enum: ['queued', 'in_progress', 'completed', 'failed'] }) status: string;
  @ApiProperty({ minimum: 0, maximum: 100 }) progress: number;
  @ApiProperty({ description: 'quota charged' }) quota: number;
  @ApiProperty({ nullable: true, type: String }) fail_reason: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'same as fail_reason' }) failure_reason: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'the prompt, at most 120 characters' }) prompt: string | null;
  @ApiProperty({ nullable: true, type: String, example: '1280x720' }) size: string | null;
  @ApiProperty({ description: 'the video can be played from /console/api/tasks/{task_id}/content' }) has_video: boolean;
  @ApiProperty({
    description: "completed, but the provider's link expired before the gateway could keep a copy: the video is gone (410 `video_expired`)",
  })
  video_expired: boolean;
  @ApiProperty({ description: 'a poster frame is at /console/api/tasks/{task_id}/thumbnail (once the video is archived)' })
  has_thumbnail: boolean;
  @ApiProperty() created_at: number;
  @ApiProperty({ nullable: true, type: Number }) completed_at: number | null;
  @ApiProperty({ nullable: true, type: Number }) finished_at: number | null;
}

export class CustomerTaskListDto {
  @ApiProperty({ type: [CustomerTaskDto] }) data: CustomerTaskDto[];
  @ApiProperty() total: number;
}

export class CustomerLogDto {
  @ApiProperty() id: number;
  @ApiProperty({ enum: ['topup', 'consume', 'refund', 'adjust', 'refused'] }) type: string;
  @ApiProperty({ nullable: true, type: String }) task_id: string | null;
  @ApiProperty({ nullable: true, type: String }) model: string | null;
  @ApiProperty({ description: 'signed change of the balance' }) quota: number;
  @ApiProperty() balance_after: number;
  @ApiProperty({ nullable: true, type: String }) detail: string | null;
  @ApiLedgerDetailCode() detail_code: string | null;
  @ApiLedgerDetailParams() detail_params: Record<string, string | number> | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: "a refund's reason: why its task failed" }) reason: string | null;
  @ApiProperty() created_at: number;
}

export class LogTotalsDto {
  @ApiProperty() topup: number;
  @ApiProperty({ description: 'negative: quota charged' }) consume: number;
  @ApiProperty() refund: number;
  @ApiProperty() adjust: number;
  @ApiProperty({ description: 'entries matching the filter' }) count: number;
}

export class CustomerLogListDto {
  @ApiProperty({ type: [CustomerLogDto] }) data: CustomerLogDto[];
  @ApiProperty() total: number;
  @ApiProperty({ type: LogTotalsDto, description: 'sums over the whole filter, not just this page' }) totals: LogTotalsDto;
}
