import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { TaskUsageDto } from '../../tasks/settlement/task-usage.dto';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { ToleratesUnknownFields } from '../../common/http/validation';

const FLAT_STATUSES = ['queued', 'in_progress', 'completed', 'failed'];

@ApiSchema({ name: 'FlatVideoMetadata' })
export class FlatVideoMetadataDto {
  @ApiProperty({
    example:
      'https://gateway.example.com/v1/videos/task_Qm3rT8xYvB2nK5pL9sD4fH7jW1cZ6aE0/content?expires=1767355262&signature=3f1c0e5a9d7b2c4e6f8a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e',
    description:
      "the gateway's own signed link to /v1/videos/{id}/content: plays without an Authorization header until `expires` (VIDEO_URL_TTL_S), 403 once altered or expired",
  })
  url: string;
}

@ApiSchema({ name: 'FlatVideoError' })
export class FlatVideoErrorDto {
  @ApiProperty({ example: 'content_moderation_failed' })
  code: string;

  @ApiProperty({ example: 'content moderation failed' })
  message: string;
}

/** The flat task form of the interface, for every family's tasks. */
@ApiSchema({ name: 'FlatVideo', description: "A video task in the flat form (every family's tasks alike)." })
export class FlatVideoDto {
  @ApiProperty({ example: 'task_Qm3rT8xYvB2nK5pL9sD4fH7jW1cZ6aE0' })
  id: string;

  @ApiProperty({ example: 'task_Qm3rT8xYvB2nK5pL9sD4fH7jW1cZ6aE0', description: 'same value as `id`' })
  task_id: string;

  @ApiProperty({ example: 'video', enum: ['video'] })
  object: 'video';

  @ApiProperty({ example: 'alpha/v6' })
  model: string;

  @ApiProperty({ enum: FLAT_STATUSES, example: 'completed' })
  status: string;

  @ApiProperty({ minimum: 0, maximum: 100, example: 100 })
  progress: number;

  @ApiProperty({ example: 1767268800, description: 'Unix seconds' })
  created_at: number;

  @ApiPropertyOptional({ example: 1767268862, description: 'Unix seconds; when completed' })
  completed_at?: number;

  @ApiPropertyOptional({ example: '1280x720', description: '`<width>x<height>`; when completed and known' })
  size?: string;

  @ApiPropertyOptional({
    example: '5',
    description:
      "the length asked for, in whole seconds, as a string (as OpenAI's video object); absent where the output follows an input video (video edit)",
  })
  seconds?: string;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 1767355262,
    description: "Unix seconds: when `metadata.url` (the signed link) expires, as OpenAI's `expires_at`; null until completed",
  })
  expires_at: number | null;

  @ApiPropertyOptional({ type: FlatVideoMetadataDto, description: 'when completed' })
  metadata?: FlatVideoMetadataDto;

  @ApiPropertyOptional({ type: TaskUsageDto, description: 'What the task cost and what it delivered, once it ended' })
  usage?: TaskUsageDto;

  @ApiPropertyOptional({ type: FlatVideoErrorDto, description: 'when failed' })
  error?: FlatVideoErrorDto;

  @ApiPropertyOptional({
    example: 'task_3Fq9ZkVwX1c2bN8mA7rT5yLp0sDe4HgJ',
    description: 'the task this one was made from (a remix, or `metadata.source_task_id`), as OpenAI names it',
  })
  remixed_from_video_id?: string;
}

const EXAMPLE_ID = 'task_Qm3rT8xYvB2nK5pL9sD4fH7jW1cZ6aE0';
const submitted = { id: EXAMPLE_ID, task_id: EXAMPLE_ID, object: 'video', model: 'alpha/v6', created_at: 1767268800 };

/** Named examples of the flat form, shown with `GET /v1/videos/{id}`. */
export const FLAT_VIDEO_EXAMPLES = {
  in_progress: { summary: 'in progress', value: { ...submitted, status: 'in_progress', progress: 42, seconds: '5', expires_at: null } },
  completed: {
    summary: 'completed',
    value: {
      ...submitted,
      status: 'completed',
      progress: 100,
      completed_at: 1767268862,
      size: '1280x720',
      seconds: '5',
      expires_at: 1767355262,
      metadata: {
        url: 'https://gateway.example.com/v1/videos/task_Qm3rT8xYvB2nK5pL9sD4fH7jW1cZ6aE0/content?expires=1767355262&signature=3f1c0e5a9d7b2c4e6f8a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e',
      },
    },
  },
  failed: {
    summary: 'failed (refunded)',
    value: {
      ...submitted,
      status: 'failed',
      progress: 100,
      seconds: '5',
      expires_at: null,
      error: { code: 'content_moderation_failed', message: 'content moderation failed' },
    },
  },
};

/** What `POST /v1/videos` answers. */
@ApiSchema({ name: 'FlatVideoSubmitted' })
export class SubmittedVideoDto {
  @ApiProperty({ example: 'task_Qm3rT8xYvB2nK5pL9sD4fH7jW1cZ6aE0' })
  id: string;

  @ApiProperty({ example: 'task_Qm3rT8xYvB2nK5pL9sD4fH7jW1cZ6aE0' })
  task_id: string;

  @ApiProperty({ example: 'video', enum: ['video'] })
  object: 'video';

  @ApiProperty({ example: 'alpha/v6' })
  model: string;

  @ApiProperty({ enum: FLAT_STATUSES, example: 'queued' })
  status: string;

  @ApiProperty({ example: 0 })
  progress: number;

  @ApiProperty({ example: 1767268800 })
  created_at: number;

  @ApiPropertyOptional({ example: 'task_3Fq9ZkVwX1c2bN8mA7rT5yLp0sDe4HgJ', description: 'a remix: the task it was made from' })
  remixed_from_video_id?: string;
}

@ApiSchema({ name: 'FlatVideoList' })
export class VideoListDto {
  @ApiProperty({ example: 'list', enum: ['list'] })
  object: 'list';

  @ApiProperty({ type: [FlatVideoDto] })
  data: FlatVideoDto[];

  @ApiProperty({ nullable: true, type: String, example: 'task_Qm3rT8xYvB2nK5pL9sD4fH7jW1cZ6aE0' })
  first_id: string | null;

  @ApiProperty({ nullable: true, type: String, example: 'task_Zx9yW8vU7tS6rQ5pO4nM3lK2jI1hG0fE' })
  last_id: string | null;

  @ApiProperty({ example: false })
  has_more: boolean;
}

@ApiSchema({ name: 'FlatVideoDeleted' })
export class DeletedVideoDto {
  @ApiProperty({ example: 'task_Qm3rT8xYvB2nK5pL9sD4fH7jW1cZ6aE0' })
  id: string;

  @ApiProperty({ example: 'video.deleted', enum: ['video.deleted'] })
  object: 'video.deleted';

  @ApiProperty({ example: true })
  deleted: true;
}

@ToleratesUnknownFields()
export class ListVideosQueryDto {
  @ApiPropertyOptional({ description: 'a task id: return the tasks after it in the chosen order' })
  @IsOptional()
  @IsString()
  after?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer between 1 and 100' })
  @Min(1, { message: 'limit must be an integer between 1 and 100' })
  @Max(100, { message: 'limit must be an integer between 1 and 100' })
  limit?: number;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @IsIn(['asc', 'desc'], { message: 'order must be asc or desc' })
  order?: 'asc' | 'desc';
}
