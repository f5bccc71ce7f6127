import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { IsOptionalNotNull, MaxUtf16Length } from '../../common/http/validation';
import { ImageSourceField, MetadataField, OptionalBooleanField, PixelSizeField, SeedField, WholeSecondsField } from './request-fields';

/** Longer than any hosted model's prompt; a model's own limit is its entry's `prompt_max_length`. */
export const HOSTED_MAX_PROMPT = 10_000;
export const HOSTED_MAX_SEED = 4294967295;
const IMAGE_MESSAGE = '$property must be an http(s) URL or a base64 data URI';

/**
 * The gateway's shared request fields, as a hosted-model platform (fal, Replicate) takes them on
 * both forms (`seconds` arrives here as `duration`). Which of them a model takes is its route's
 * `input_map`: a field it does not name is a 400 naming that field. Each family names its own
 * subclass for the API documentation.
 */
export class HostedVideoRequestDto {
  @ApiProperty({
    example: 'fal-kling-v2-5-turbo-pro',
    description: 'a model of the catalog routed on this platform (GET /v1/videos/models)',
  })
  @IsString()
  model: string;

  @ApiPropertyOptional({ example: 'a red fox running through fresh snow', description: 'required for text-to-video' })
  @IsOptionalNotNull()
  @IsString()
  @MaxUtf16Length(HOSTED_MAX_PROMPT, { message: `$property must be at most ${HOSTED_MAX_PROMPT} characters` })
  prompt?: string;

  @WholeSecondsField({
    example: 5,
    description: "seconds (also `seconds` on /v1/videos), one of the model's lengths; default its default",
  })
  duration?: number;

  @PixelSizeField({
    example: '1280x720',
    description: '`<width>x<height>`: sets aspect_ratio and resolution (the short side, e.g. 720p) at once',
  })
  size?: string;

  @ApiPropertyOptional({ example: '16:9', description: "one of the model's aspect ratios" })
  @IsOptionalNotNull()
  @IsString()
  @MaxUtf16Length(16)
  aspect_ratio?: string;

  @ApiPropertyOptional({ example: '1080p', description: "one of the model's resolutions; default its first" })
  @IsOptionalNotNull()
  @IsString()
  @MaxUtf16Length(16)
  resolution?: string;

  @ImageSourceField(IMAGE_MESSAGE, {
    description:
      'first frame (image-to-video): a file part (multipart), an http(s) URL the provider fetches, or a `data:image/png|jpeg|webp;base64,` URI (PNG, JPEG or WebP, at most 10 MB)',
  })
  input_reference?: string;

  @ImageSourceField(IMAGE_MESSAGE, { description: 'last frame (with input_reference): an http(s) URL or a data URI' })
  last_frame?: string;

  @OptionalBooleanField({ example: false, description: 'generated audio, on a model that offers it (billed at its audio price)' })
  audio?: boolean;

  @ApiPropertyOptional({ example: 'blurry, low quality' })
  @IsOptionalNotNull()
  @IsString()
  @MaxUtf16Length(HOSTED_MAX_PROMPT, { message: `$property must be at most ${HOSTED_MAX_PROMPT} characters` })
  negative_prompt?: string;

  @SeedField(HOSTED_MAX_SEED)
  seed?: number;

  @MetadataField({
    description: "an object (as on every platform); a hosted model's input is what its route's input_map makes, so its keys are not sent",
  })
  metadata?: Record<string, unknown>;
}
