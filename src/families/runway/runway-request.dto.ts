import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { IsOptionalNotNull, MaxUtf16Length } from '../../common/http/validation';
import { codeList } from '../shared/code-list';
import { textAndImageExamples } from '../shared/request-examples';
import { RUNWAY_MODELS } from './runway-models';
import { EXAMPLE_FRAME, ImageSourceField, MetadataField, OptionalTextField, SeedField, WholeSecondsField } from '../shared/request-fields';

export const RUNWAY_MAX_PROMPT = 1000;
export const RUNWAY_MAX_SEED = 4294967295;

/**
 * The request schema of the Runway models, on both forms (the same names): types only here; which
 * model takes which value is checked after it (runway-request-rules.ts), before any charge.
 */
@ApiSchema({
  name: 'RunwayVideoRequest',
  description: `Runway models (${codeList(Object.keys(RUNWAY_MODELS))}), both forms.`,
})
export class RunwayVideoRequestDto {
  @ApiProperty({ enum: Object.keys(RUNWAY_MODELS), example: 'gen4.5' })
  @IsString()
  model: string;

  @ApiPropertyOptional({
    maxLength: RUNWAY_MAX_PROMPT,
    example: 'a paper boat drifting down a rainy street',
    description: 'required for text-to-video; optional with input_reference',
  })
  @IsOptionalNotNull()
  @IsString()
  @MaxUtf16Length(RUNWAY_MAX_PROMPT)
  prompt?: string;

  @WholeSecondsField({
    example: 5,
    description:
      "seconds (also `seconds` on /v1/videos), one of the model's (GET /v1/videos/models): gen4.5 2 to 10 (default 5); gen4_turbo 5 or 10 (default 5); veo3.1 and veo3.1_fast 4, 6 or 8 (default 8)",
  })
  duration?: number;

  @OptionalTextField({
    example: '1280x720',
    description: "pixels `<w>x<h>`, one of the model's ratios (e.g. 1280x720, 720x1280, 960x960); or use aspect_ratio with resolution",
  })
  size?: string;

  @OptionalTextField({ example: '16:9', description: '16:9, 9:16, 4:3, 3:4, 1:1, 21:9 (the model decides which); default 16:9' })
  aspect_ratio?: string;

  @OptionalTextField({ example: '720p', description: '720p (default) or 1080p (veo3.1 and veo3.1_fast, 16:9 and 9:16)' })
  resolution?: string;

  @ImageSourceField('$property must be an https URL or a data URI', {
    description:
      'first frame (image-to-video): a file part (multipart), an https URL or a data URI (image/png, jpeg or webp, under 5 MB encoded); required by gen4_turbo',
  })
  input_reference?: string;

  @ImageSourceField('$property must be an https URL or a data URI', {
    description: 'last frame (veo3.1, veo3.1_fast, with input_reference): an https URL or a data URI',
  })
  last_frame?: string;

  @ApiPropertyOptional({ description: 'veo3.1 and veo3.1_fast only' })
  @IsOptionalNotNull()
  @IsString()
  @MaxUtf16Length(RUNWAY_MAX_PROMPT)
  negative_prompt?: string;

  @SeedField(RUNWAY_MAX_SEED)
  seed?: number;

  @MetadataField({
    example: { contentModeration: { publicFigureThreshold: 'low' } },
    description:
      'passed to Runway as it is (e.g. `contentModeration`, `audio` for the Veo models); keys the gateway sets itself are refused',
  })
  metadata?: Record<string, unknown>;
}

export const RUNWAY_EXAMPLES = textAndImageExamples('runway', {
  text: {
    summary: 'Runway gen4.5, text-to-video',
    value: { model: 'gen4.5', prompt: 'a paper boat drifting down a rainy street', duration: 5, size: '1280x720' },
  },
  image: {
    summary: 'Runway veo3.1_fast, image-to-video',
    value: {
      model: 'veo3.1_fast',
      prompt: 'slow dolly in',
      input_reference: EXAMPLE_FRAME,
      duration: 8,
      aspect_ratio: '16:9',
      resolution: '720p',
    },
  },
});
