import { TaskUsageDto } from '../../tasks/settlement/task-usage.dto';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'UnifiedTaskProperties' })
export class UnifiedTaskProperties {
  @ApiProperty({ description: 'Input echo: the prompt as forwarded (after truncation)' })
  input: string;

  @ApiProperty({
    description: "The model the task runs, as the client knows it (the operator's upstream name shows only in the admin views)",
    example: 'beta-1.0-t2v',
  })
  upstream_model_name: string;

  @ApiProperty({ description: 'Model name requested by the client', example: 'beta-1.0-t2v' })
  origin_model_name: string;

  @ApiPropertyOptional({
    description: 'The task it was made from (`metadata.source_task_id`, or a remix)',
    example: 'task_3Fq9ZkVwX1c2bN8mA7rT5yLp0sDe4HgJ',
  })
  source_task_id?: string;
}

@ApiSchema({ name: 'UnifiedTask', description: 'A task in the unified form (`data` of the wrapper), for any platform.' })
export class UnifiedTask {
  @ApiProperty({ description: 'Internal auto-increment task id', example: 42 })
  id: number;

  @ApiProperty({ description: 'Public task id', example: 'task_3Fq9ZkVwX1c2bN8mA7rT5yLp0sDe4HgJ' })
  task_id: string;

  @ApiProperty({
    description: "Always empty: which platform serves a task is the operator's (the admin views show it)",
    example: '',
  })
  platform: string;

  @ApiProperty({ example: 7 })
  user_id: number;

  @ApiProperty({ example: 'default' })
  group: string;

  @ApiProperty({ description: "0: which channel serves a task is the operator's (the admin views show it)", example: 0 })
  channel_id: number;

  @ApiProperty({ description: 'Raw quota billed for the task (refunded on FAILURE)', example: 7500 })
  quota: number;

  @ApiPropertyOptional({
    type: TaskUsageDto,
    description: 'What the task cost and what it delivered, once it ended (`quota` stays what was charged at submit)',
  })
  usage?: TaskUsageDto;

  @ApiProperty({
    description:
      'What the task makes its video from: textGenerate (a prompt), imageGenerate (an image), referenceGenerate (reference images), videoEdit (a video)',
    example: 'textGenerate',
  })
  action: string;

  @ApiProperty({ enum: ['NOT_START', 'QUEUED', 'IN_PROGRESS', 'SUCCESS', 'FAILURE'], example: 'SUCCESS' })
  status: string;

  @ApiProperty({ description: 'Non-empty only on FAILURE: the reason, with the provider code and message', example: '' })
  fail_reason: string;

  @ApiProperty({
    description:
      "Non-empty on SUCCESS: the gateway's own signed link to /v1/videos/{id}/content (`expires`, `signature`; valid VIDEO_URL_TTL_S, no Authorization header needed). The provider's URL is only in `data`",
    example: '',
  })
  result_url: string;

  @ApiProperty({ description: 'Unix seconds; 0 while not yet happened', format: 'int64' })
  submit_time: number;

  @ApiProperty({ description: 'Unix seconds; 0 while not yet happened', format: 'int64' })
  start_time: number;

  @ApiProperty({ description: 'Unix seconds; 0 while not yet happened', format: 'int64' })
  finish_time: number;

  @ApiProperty({ format: 'int64' })
  created_at: number;

  @ApiProperty({ format: 'int64' })
  updated_at: number;

  @ApiProperty({ description: 'Percent, e.g. 30%; 100% when finished', example: '100%' })
  progress: string;

  @ApiProperty({ type: UnifiedTaskProperties })
  properties: UnifiedTaskProperties;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The raw upstream query response (e.g. family B: request_id, output.task_id, output.task_status, output.video_url, output.code/message on failure, usage); {} before the first query',
  })
  data: Record<string, unknown>;
}

/** The unified wrapper of GET /v1/video/generations/{task_id}. */
@ApiSchema({
  name: 'UnifiedTaskResponse',
  description: 'The unified wrapper `{code, message, data}`; `code` is `success` also for a FAILURE task.',
})
export class UnifiedTaskResponse {
  @ApiProperty({ example: 'success', description: '`success` whenever the task was found, also for a failed task' })
  code: string;

  @ApiProperty({ example: '' })
  message: string;

  @ApiProperty({ type: UnifiedTask })
  data: UnifiedTask;
}

const common = {
  id: 42,
  task_id: 'task_3Fq9ZkVwX1c2bN8mA7rT5yLp0sDe4HgJ',
  platform: '',
  user_id: 7,
  group: 'default',
  channel_id: 0,
  quota: 7500,
  action: 'textGenerate',
  submit_time: 1767268800,
  start_time: 1767268812,
  created_at: 1767268800,
  properties: { input: 'A cat surfing a wave at sunset', upstream_model_name: 'beta-1.0-t2v', origin_model_name: 'beta-1.0-t2v' },
};

export const UNIFIED_TASK_EXAMPLES = {
  success: {
    summary: 'SUCCESS',
    value: {
      code: 'success',
      message: '',
      data: {
        ...common,
        status: 'SUCCESS',
        fail_reason: '',
        result_url:
          'https://gateway.example.com/v1/videos/task_3Fq9ZkVwX1c2bN8mA7rT5yLp0sDe4HgJ/content?expires=1767355262&signature=3f1c0e5a9d7b2c4e6f8a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e',
        finish_time: 1767268930,
        updated_at: 1767268930,
        progress: '100%',
        data: {
          request_id: 'c1f0a3e2-0000-4d8b-9e0f-1234567890ab',
          output: {
            task_id: '0385dc79-5ff8-4d82-bcb6-xxxxxx',
            task_status: 'SUCCEEDED',
            submit_time: '2026-01-01 12:00:00.123',
            scheduled_time: '2026-01-01 12:00:05.456',
            end_time: '2026-01-01 12:02:10.789',
            orig_prompt: 'A cat surfing a wave at sunset',
            video_url: 'https://dashscope-result.example.com/video/abc.mp4?Expires=1767355300&Signature=x',
          },
          usage: { duration: 5, input_video_duration: 0, output_video_duration: 5, video_count: 1, SR: 1080, ratio: '16:9' },
        },
      },
    },
  },
  failure: {
    summary: 'FAILURE (refunded)',
    value: {
      code: 'success',
      message: '',
      data: {
        ...common,
        status: 'FAILURE',
        fail_reason: 'content moderation failed: DataInspectionFailed',
        result_url: '',
        finish_time: 1767268890,
        updated_at: 1767268890,
        progress: '100%',
        data: {
          request_id: 'c1f0a3e2-0000-4d8b-9e0f-1234567890ac',
          output: {
            task_id: '0385dc79-5ff8-4d82-bcb6-yyyyyy',
            task_status: 'FAILED',
            submit_time: '2026-01-01 12:00:00.123',
            end_time: '2026-01-01 12:01:30.000',
            code: 'DataInspectionFailed',
            message: 'Output data may contain inappropriate content.',
          },
        },
      },
    },
  },
};
