import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { IsOptionalNotNull, MAX_INT32, MaxUtf16Length } from '../../common/http/validation';
import { codeList } from '../shared/code-list';
import { HostedVideoRequestDto } from '../shared/hosted-video-request.dto';
import { textAndImageExamples } from '../shared/request-examples';
import { EXAMPLE_FRAME, MetadataField, SeedField } from '../shared/request-fields';
import { WAN_MODELS, WAN_NEGATIVE_PROMPT_MAX } from './wan-models';

/**
 * The request schema of a Wan model on DashScope, on both forms (`seconds` arrives here as
 * `duration`): the gateway's shared fields, read against the model's catalog entry and its wire
 * (wan-task-rules.ts); `metadata` goes to DashScope's `parameters`.
 */
@ApiSchema({
  name: 'WanVideoRequest',
  description: `Alibaba Wan on DashScope (${codeList(Object.keys(WAN_MODELS))}, and the catalog's other \`wan\` routes): text-to-video, image-to-video with \`input_reference\`, first and last frames with \`last_frame\` (wan2.7-i2v).`,
})
export class WanVideoRequestDto extends HostedVideoRequestDto {
  @ApiProperty({ enum: Object.keys(WAN_MODELS), example: 'wan2.7-t2v' })
  @IsString()
  declare model: string;

  @ApiPropertyOptional({ example: 'blurry, low quality', maxLength: WAN_NEGATIVE_PROMPT_MAX })
  @IsOptionalNotNull()
  @IsString()
  @MaxUtf16Length(WAN_NEGATIVE_PROMPT_MAX, { message: `$property must be at most ${WAN_NEGATIVE_PROMPT_MAX} characters` })
  declare negative_prompt?: string;

  @SeedField(MAX_INT32, { description: 'absent: random' })
  declare seed?: number;

  @MetadataField({
    example: { prompt_extend: false, watermark: false },
    description:
      "sent in DashScope's `parameters` as it is (`prompt_extend`, `watermark`, `shot_type`, ...); the parameters the gateway sets itself (`size`, `resolution`, `ratio`, `duration`, `audio`, `seed`) are refused",
  })
  declare metadata?: Record<string, unknown>;
}

const TEXT_EXAMPLE = {
  model: 'wan2.7-t2v',
  prompt: 'a lighthouse at dusk, waves breaking',
  duration: 5,
  aspect_ratio: '16:9',
  resolution: '720p',
};
const IMAGE_EXAMPLE = {
  model: 'wan2.6-i2v',
  prompt: 'the camera pulls back slowly',
  input_reference: EXAMPLE_FRAME,
  duration: 5,
  resolution: '720p',
};

export const WAN_EXAMPLES = textAndImageExamples('wan', {
  text: { summary: 'Wan wan2.7-t2v, text-to-video with audio', value: TEXT_EXAMPLE },
  image: { summary: 'Wan wan2.6-i2v, image-to-video', value: IMAGE_EXAMPLE },
});
