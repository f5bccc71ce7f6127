import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, IsString } from 'class-validator';
import { IsOptionalNotNull, IsRequired, MaxUtf16Length } from '../../common/http/validation';
import type { RequestExample, SubmitForm } from '../family';
import { codeList } from '../shared/code-list';
import { MINIMAX_MODEL_IDS, MINIMAX_V2_MAX_PROMPT } from './minimax-models';
import { MetadataField, OptionalTextField, WholeSecondsField } from '../shared/request-fields';

const DURATION_MESSAGE = '$property must be a whole number of seconds';
const IMAGE_DESCRIPTION = 'an http(s) URL or a data URI (`data:image/png;base64,...`): JPG or PNG, under 20 MB, short side over 300 px';

/**
 * The MiniMax Hailuo request schema, the same field names on both forms (`/v1/videos` and
 * `/v1/video/generations`): types here, each model's rules after it (minimax-rules.ts, from the
 * model's catalog entry); the values documented here are the builtin models'.
 */
@ApiSchema({
  name: 'MinimaxVideoRequest',
  description: `MiniMax Hailuo (${codeList(MINIMAX_MODEL_IDS)}) on \`/v1/videos\` and \`/v1/video/generations\`.`,
})
export class MinimaxVideoRequestDto {
  @ApiProperty({ enum: MINIMAX_MODEL_IDS, description: 'MiniMax-Hailuo-2.3-Fast is image-to-video only' })
  @IsString()
  model: string;

  @ApiProperty({
    example: 'a paper boat drifting down a rainy street [Truck left]',
    maxLength: MINIMAX_V2_MAX_PROMPT,
    description: "camera moves in brackets, e.g. `[Pan left]`; at most the model's prompt length (2000 on Hailuo, 7000 on MiniMax-H3)",
  })
  @IsRequired()
  @IsString()
  @MaxUtf16Length(MINIMAX_V2_MAX_PROMPT)
  prompt: string;

  @ApiPropertyOptional({
    example: 6,
    description:
      "seconds (also `seconds`), one of the model's (GET /v1/videos/models): 6 or 10 on Hailuo (default 6; 1080P is 6 s only), 5 to 15 on MiniMax-H3 (default 5)",
  })
  @IsOptionalNotNull()
  @IsInt({ message: DURATION_MESSAGE })
  duration?: number;

  @OptionalTextField({
    example: '768P',
    description:
      "one of the model's: 512P, 768P, 1080P on Hailuo (default its first, 768P; 512P: image-to-video only); 2K (default), 768P on MiniMax-H3",
  })
  resolution?: string;

  @OptionalTextField({ example: '1366x768', description: '`<width>x<height>`: its short side picks the resolution (e.g. 768: 768P)' })
  size?: string;

  @OptionalTextField({
    example: '16:9',
    description:
      'text-to-video only (image-to-video follows the image): 16:9 on Hailuo; 16:9 (default), 21:9, 4:3, 1:1, 3:4, 9:16 on MiniMax-H3',
  })
  aspect_ratio?: string;

  @OptionalTextField({ description: `first frame (image-to-video): a file part (multipart) or ${IMAGE_DESCRIPTION}` })
  input_reference?: string;

  @OptionalTextField({ description: `MiniMax-Hailuo-02 and MiniMax-H3, with a first frame: the last frame, ${IMAGE_DESCRIPTION}` })
  last_frame?: string;

  @OptionalTextField({ description: 'not taken by MiniMax models (a 400)' })
  negative_prompt?: string;

  @WholeSecondsField({ description: 'not taken by MiniMax models (a 400)' }, '$property must be an integer')
  seed?: number;

  @MetadataField({
    example: { prompt_optimizer: false },
    description:
      'passed to MiniMax as it is (`prompt_optimizer`, `fast_pretreatment`, `aigc_watermark`; on MiniMax-H3 `aigc_watermark`); fields the gateway sets are refused',
  })
  metadata?: Record<string, unknown>;
}

const PROMPT = 'a paper boat drifting down a rainy street [Truck left]';

export const MINIMAX_EXAMPLES: Record<SubmitForm, Record<string, RequestExample>> = {
  flat: {
    'minimax-text-to-video': {
      summary: 'MiniMax Hailuo, text to video',
      value: { model: 'MiniMax-Hailuo-2.3', prompt: PROMPT, seconds: '6', resolution: '768P' },
    },
  },
  unified: {
    'minimax-text-to-video': {
      summary: 'MiniMax Hailuo, text to video',
      value: { model: 'MiniMax-Hailuo-2.3', prompt: PROMPT, duration: 6, resolution: '1080P' },
    },
  },
};
