import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsString, Matches, ValidateBy } from 'class-validator';
import { IsOptionalNotNull, MaxUtf16Length } from '../../common/http/validation';
import type { RequestExample, SubmitForm } from '../family';
import { codeList } from '../shared/code-list';
import { VEO_ASPECT_RATIOS, VEO_MODELS, VEO_SIMULATOR_MODEL } from './veo-models';
import { MetadataField, OptionalTextField, WholeSecondsField } from '../shared/request-fields';

const MAX_PROMPT = 4_000;
/** A 1x1 PNG: an example that Swagger's "Try it out" can send as it is (no host to fetch). */
const FIRST_FRAME =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const IMAGE_MESSAGE = '$property must be an http(s) URL or a base64 data URI (data:image/png;base64,...)';
const IMAGE_SOURCE = /^(https?:\/\/\S+|data:image\/[\w.+-]+;base64,[\s\S]+)$/i;

/** A JSON image: an http(s) URL or a data URI, or (OpenAI's spelling) `{image_url}` holding one. */
function isImageSource(value: unknown): boolean {
  const url =
    typeof value === 'string'
      ? value
      : value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1
        ? (value as { image_url?: unknown }).image_url
        : undefined;
  return typeof url === 'string' && IMAGE_SOURCE.test(url);
}

/**
 * The request schema of the Veo models (Gemini API), the same field names on both forms. Rules
 * across fields and per model (durations, resolutions, aspect ratios, last frame: the model's
 * catalog entry) are planVeoRequest's; the values documented here are the builtin models'.
 */
@ApiSchema({
  name: 'VeoVideoRequest',
  description: `Veo on the Gemini API: the catalog's veo models (builtin: ${codeList(Object.keys(VEO_MODELS))}; Google's own ids are retired).`,
})
export class VeoVideoRequestDto {
  @ApiProperty({
    example: VEO_SIMULATOR_MODEL,
    description: 'a veo model of the catalog (GET /v1/videos/models)',
  })
  @IsString()
  model: string;

  @ApiPropertyOptional({
    example: 'a paper boat drifting down a rainy street, cinematic',
    maxLength: MAX_PROMPT,
    description: 'required without input_reference',
  })
  @IsOptionalNotNull()
  @IsString()
  @MaxUtf16Length(MAX_PROMPT, { message: `$property must be at most ${MAX_PROMPT} characters` })
  prompt?: string;

  @WholeSecondsField({
    example: 8,
    description:
      "seconds (also `seconds` on /v1/videos), one of the model's (GET /v1/videos/models): 4, 6 or 8 on the builtin models; default 8; 1080p and 4k take 8 only",
  })
  duration?: number;

  @ApiPropertyOptional({
    example: '1280x720',
    description: '`1280x720`, `720x1280`, `1920x1080`, `1080x1920`, `3840x2160` or `2160x3840`; or give aspect_ratio and resolution',
  })
  @IsOptionalNotNull()
  @IsString()
  @Matches(/^\d{2,5}x\d{2,5}$/, { message: 'size must be <width>x<height> in pixels, e.g. 1280x720' })
  size?: string;

  @OptionalTextField({
    example: '16:9',
    description: `one of the model's: ${VEO_ASPECT_RATIOS.join(', ')} on the builtin models; default its first (16:9)`,
  })
  aspect_ratio?: string;

  @OptionalTextField({
    example: '720p',
    description: "one of the model's: 720p, 1080p, 4k (Veo 3.1 only) on the builtin models; default its first (720p)",
  })
  resolution?: string;

  @ApiPropertyOptional({
    description: 'first frame (image-to-video): a file part (multipart), an http(s) URL or a data URI; PNG, JPEG or WEBP',
    example: FIRST_FRAME,
  })
  @IsOptionalNotNull()
  @ValidateBy({
    name: 'isImageSource',
    validator: { validate: isImageSource, defaultMessage: () => IMAGE_MESSAGE.replace('$property', 'input_reference') },
  })
  input_reference?: string | { image_url: string };

  @ApiPropertyOptional({ description: 'last frame (Veo 3.1, with input_reference): an http(s) URL or a data URI' })
  @IsOptionalNotNull()
  @IsString({ message: IMAGE_MESSAGE })
  @Matches(IMAGE_SOURCE, { message: IMAGE_MESSAGE })
  last_frame?: string;

  @ApiPropertyOptional({ example: 'cartoon, low quality', maxLength: MAX_PROMPT })
  @IsOptionalNotNull()
  @IsString()
  @MaxUtf16Length(MAX_PROMPT, { message: `$property must be at most ${MAX_PROMPT} characters` })
  negative_prompt?: string;

  @ApiPropertyOptional({ description: 'not taken by Veo on the Gemini API (Vertex AI only): refused' })
  seed?: unknown;

  @MetadataField({
    example: { personGeneration: 'allow_all' },
    description: 'sent among Veo `parameters` as it is (e.g. `personGeneration`, `enhancePrompt`); keys the gateway sets are refused',
  })
  metadata?: Record<string, unknown>;
}

const TEXT: RequestExample = {
  summary: 'Veo, text to video (the simulator)',
  value: {
    model: VEO_SIMULATOR_MODEL,
    prompt: 'a paper boat drifting down a rainy street, cinematic',
    seconds: '8',
    size: '1280x720',
  },
};
const IMAGE: RequestExample = {
  summary: 'Veo, image to video (the simulator)',
  value: {
    model: VEO_SIMULATOR_MODEL,
    prompt: 'the boat sails away',
    duration: 6,
    aspect_ratio: '16:9',
    resolution: '720p',
    input_reference: FIRST_FRAME,
  },
};

export const VEO_EXAMPLES: Partial<Record<SubmitForm, Record<string, RequestExample>>> = {
  flat: { 'veo-text': TEXT, 'veo-image': IMAGE },
  unified: {
    'veo-text': {
      ...TEXT,
      value: {
        model: VEO_SIMULATOR_MODEL,
        prompt: 'a paper boat drifting down a rainy street, cinematic',
        duration: 8,
        aspect_ratio: '16:9',
        resolution: '720p',
      },
    },
    'veo-image': IMAGE,
  },
};
