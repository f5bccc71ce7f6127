import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { TaskEntity } from '../../tasks/task.entity';
import { toSubmittedTask } from '../../tasks/submitted-task.view';

/** The flat submit response both endpoint sets answer with. */
@ApiSchema({ name: 'GenerationSubmitted', description: 'The flat submit response; status `queued` at submission.' })
export class GenerationSubmitResponse {
  @ApiProperty({ example: 'task_3Fq9ZkVwX1c2bN8mA7rT5yLp0sDe4HgJ' })
  id: string;

  @ApiProperty({ example: 'task_3Fq9ZkVwX1c2bN8mA7rT5yLp0sDe4HgJ', description: 'Same value as id' })
  task_id: string;

  @ApiProperty({ example: 'video' })
  object: 'video';

  @ApiProperty({ example: 'beta-1.0-t2v' })
  model: string;

  @ApiProperty({ example: 'queued', enum: ['queued', 'in_progress', 'completed', 'failed'] })
  status: string;

  @ApiProperty({ example: 0, minimum: 0, maximum: 100 })
  progress: number;

  @ApiProperty({ example: 1767268800, description: 'Unix seconds' })
  created_at: number;

  static of(task: TaskEntity): GenerationSubmitResponse {
    return toSubmittedTask(task);
  }
}

/** Error body on /v1/video/generations. */
@ApiSchema({ name: 'WrapperError', description: 'Error body on /v1/video/generations: `{code, message, data: null}`.' })
export class WrapperErrorResponse {
  @ApiProperty({ example: 'invalid_request' })
  code: string;

  @ApiProperty({ example: 'prompt is required' })
  message: string;

  @ApiProperty({ nullable: true, example: null, type: 'object', additionalProperties: true, description: 'Always null on errors' })
  data: null;
}
