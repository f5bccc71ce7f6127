import { ApiProperty } from '@nestjs/swagger';
import type { TaskUsage } from '../task-usage';

/** `usage` of an ended task, on both surfaces and in the webhook and callback payloads. */
export class TaskUsageDto implements TaskUsage {
  @ApiProperty({ example: 5, description: 'Whole seconds delivered (settled as asked: the seconds asked); 0 when the task failed' })
  seconds: number;

  @ApiProperty({
    example: '720p',
    nullable: true,
    type: String,
    description: "The resolution delivered, by the frame's short edge; null when unknown",
  })
  resolution: string | null;

  @ApiProperty({ example: true, description: 'Whether the delivered video has an audio stream' })
  audio: boolean;

  @ApiProperty({ example: 3750, description: 'The quota the task cost in the end (what was charged at submit, less the refund)' })
  quota: number;

  @ApiProperty({ example: 0.0075, description: "`quota` in the operator's currency (QUOTA_PER_UNIT quota a unit)" })
  usd: number;

  @ApiProperty({
    enum: ['delivered', 'as_asked', 'refunded'],
    example: 'delivered',
    description:
      '`delivered`: priced on the stored video; `as_asked`: the video could not be read (or is not settled yet); `refunded`: the task failed',
  })
  settled: TaskUsage['settled'];
}
