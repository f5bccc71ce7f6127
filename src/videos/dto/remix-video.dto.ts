import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Allow, IsString } from 'class-validator';
import { IsOptionalNotNull, IsRequired } from '../../common/http/validation';
import { MetadataField, OptionalTextField } from '../../families/shared/request-fields';

/** `POST /v1/videos/{id}/remix`: OpenAI's `{prompt}`, and what a route can change of the new video. */
@ApiSchema({
  name: 'RemixVideoRequest',
  description:
    "A new video from a completed one of the caller's, its copy in the gateway's store sent to the provider: edited (`video-edit`, " +
    'the default) or continued (`metadata.mode: "video-extend"`). Priced by the new video\'s seconds, settled on what was delivered.',
})
export class RemixVideoDto {
  @ApiProperty({ example: 'make it snow', description: 'what to change (edit) or what happens next (extend)' })
  @IsRequired()
  @IsString()
  prompt: string;

  @OptionalTextField({ example: 'grok-imagine-video', description: "another model to make it with; default the source task's model" })
  model?: string;

  @MetadataField({
    example: { mode: 'video-extend' },
    description: '`mode`: `video-edit` (default) or `video-extend`; any other key goes to the provider as on a submit',
  })
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({
    example: '6',
    description:
      'seconds the route adds, where it takes them (an extend: xAI 1 to 10, default 6; Kling 3 to 10, default 5); an edit follows the source video',
  })
  @IsOptionalNotNull()
  // Checked by the submit's own rule for `seconds` (a whole number, as text or a number).
  @Allow()
  seconds?: string | number;
}

/** Named examples of the remix body. */
export const REMIX_EXAMPLES = {
  edit: { summary: 'edit (OpenAI remix)', value: { prompt: 'make it snow' } },
  extend: {
    summary: 'extend by 6 s',
    value: { prompt: 'the camera pulls back over the city', seconds: '6', metadata: { mode: 'video-extend' } },
  },
};
