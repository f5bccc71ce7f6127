import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class GenerationMediaDto {
  @ApiProperty({ enum: ['first_frame', 'reference_image', 'video'], description: 'first_frame: i2v; reference_image: r2v (1 to 9) and video-edit (0 to 5); video: video-edit (exactly 1)' })
  type: string;

  @ApiProperty({ description: 'Publicly accessible http(s) URL. Images: JPEG/PNG/WEBP, at most 10 MB; video: MP4/MOV, at most 100 MB' })
  url: string;
}

export class GenerationMediaInputDto {
  @ApiProperty({ type: [GenerationMediaDto], description: 'Media in order; r2v prompts name reference images [Image 1], [Image 2], ... in this order' })
  media: GenerationMediaDto[];
}

export class GenerationMetadataDto {
  @ApiPropertyOptional({ enum: ['16:9', '9:16', '1:1', '4:3', '3:4'], default: '16:9', description: 't2v and r2v only; ignored by i2v (follows the image) and video-edit' })
  ratio?: string;

  @ApiPropertyOptional({ default: true, description: 'Brand watermark at the bottom right' })
  watermark?: boolean;

  @ApiPropertyOptional({ minimum: 0, maximum: 2147483647, description: 'Generated automatically when absent' })
  seed?: number;

  @ApiPropertyOptional({ enum: ['auto', 'origin'], default: 'auto', description: 'video-edit only: auto (model decides) or origin (keep the original audio)' })
  audio_setting?: string;

  @ApiPropertyOptional({ type: GenerationMediaInputDto, description: 'Media inputs of r2v, video-edit and (alternatively to input_reference) i2v' })
  input?: GenerationMediaInputDto;

  @ApiPropertyOptional({
    description: 'gamma-2-0 / gamma-2-0-fast only: `content` items `{type: image_url, image_url: {url: asset://<asset_id>}}`, `resolution`, `ratio`, `seed`',
    type: 'array',
    items: { type: 'object' },
  })
  content?: unknown[];

  @ApiPropertyOptional({ description: 'gamma models only: 480p, 720p or 1080p (no 1080p on gamma-2-0-fast)' })
  resolution?: string;
}

/**
 * The family B submit body (also used by family C with verified assets). Validation is done by
 * the submit use case so that the messages are the interface's own.
 */
export class CreateGenerationDto {
  @ApiProperty({
    enum: ['beta-1.0-t2v', 'beta-1.0-i2v', 'beta-1.0-r2v', 'beta-1.0-video-edit', 'gamma-2-0', 'gamma-2-0-fast'],
    description: 'beta-1.0-t2v (text), -i2v (first frame), -r2v (1 to 9 reference images), -video-edit (1 video + 0 to 5 reference images); gamma-* with verified assets',
  })
  model: string;

  @ApiProperty({
    description:
      'At most 5000 non-Chinese or 2500 Chinese characters; longer prompts are truncated. A mixed prompt is measured with each Chinese character counting 2 against 5000.',
  })
  prompt: string;

  @ApiPropertyOptional({ enum: ['720P', '1080P'], default: '1080P' })
  size?: string;

  @ApiPropertyOptional({ minimum: 3, maximum: 15, default: 5, description: 'Seconds. Ignored by video-edit (the output follows the input video, at most 15 s)' })
  duration?: number;

  @ApiPropertyOptional({ description: 'beta-1.0-i2v only: publicly accessible URL of the first-frame image (JPEG/PNG/WEBP, at most 10 MB)' })
  input_reference?: string;

  @ApiPropertyOptional({ type: GenerationMetadataDto })
  metadata?: GenerationMetadataDto;
}
