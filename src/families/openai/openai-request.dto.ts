import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, IsString, ValidateBy } from 'class-validator';
import { IsOptionalNotNull, IsRequired } from '../../common/http/validation';
import type { RequestExample } from '../family';
import { PixelSizeField } from '../shared/request-fields';

/** The lengths an OpenAI-compatible server takes (the type check's words); a model's catalog entry says its own. */
export const OPENAI_MAX_SECONDS = 120;
/** The prompt limit, for an entry that names none. */
export const OPENAI_MAX_PROMPT = 32_000;
const REFERENCE_MESSAGE = 'input_reference must be a file part, an http(s) URL or {"image_url": "<http(s) URL>"}';
const HTTP_URL = /^https?:\/\/[^\s]+$/i;

/** A JSON `input_reference`: an http(s) URL, or `{image_url}` with one and nothing else; the upstream fetches it. */
function isJsonReference(value: unknown): boolean {
  const url =
    typeof value === 'string'
      ? value
      : value && typeof value === 'object' && !Array.isArray(value)
        ? (value as { image_url?: unknown }).image_url
        : undefined;
  return (
    typeof url === 'string' &&
    url.length <= 2048 &&
    HTTP_URL.test(url) &&
    (typeof value === 'string' || Object.keys(value as object).length === 1)
  );
}

/**
 * The request schema of an OpenAI-compatible model (family O, `/v1/videos`): the Videos API's own
 * fields only, checked by type; the model's constraints are the upstream's to enforce. `seconds`
 * (OpenAI's spelling, a string) arrives here as `duration`.
 */
@ApiSchema({
  name: 'OpenAiVideoRequest',
  description: 'Family O: a model an `openai` channel lists (e.g. `openai-simulator` on the simulator).',
})
export class OpenAiVideoRequestDto {
  @ApiProperty({ example: 'openai-simulator', description: 'a model listed on an enabled `openai` channel' })
  @IsString()
  model: string;

  @ApiProperty({
    example: 'a paper boat drifting down a rainy street',
    description: `at most the model's prompt_max_length (${OPENAI_MAX_PROMPT} when it names none)`,
  })
  @IsRequired()
  @IsString()
  prompt: string;

  @ApiPropertyOptional({
    type: String,
    example: '4',
    description:
      "OpenAI's `seconds` (also `duration`): whole seconds, one of the model's durations (openai-simulator: 4, 8 or 12); default its default_duration",
  })
  @IsOptionalNotNull()
  @IsInt({ message: `$property must be a whole number of seconds from 1 to ${OPENAI_MAX_SECONDS}` })
  duration?: number;

  @PixelSizeField({
    example: '1280x720',
    description: "pixels, `<width>x<height>`: one of the model's resolutions when it lists them (the first the default), else any",
  })
  size?: string;

  @ApiPropertyOptional({
    description: 'first frame: a file part (multipart), an http(s) URL, or `{"image_url": "<http(s) URL>"}`; forwarded as it is',
    oneOf: [
      { type: 'string', format: 'uri' },
      { type: 'object', properties: { image_url: { type: 'string', format: 'uri' } }, required: ['image_url'] },
    ],
  })
  @IsOptionalNotNull()
  @ValidateBy({ name: 'isInputReference', validator: { validate: isJsonReference, defaultMessage: () => REFERENCE_MESSAGE } })
  input_reference?: string | { image_url: string };
}

export const OPENAI_FLAT_EXAMPLES: Record<string, RequestExample> = {
  'openai-compatible': {
    summary: 'Family O, a model an openai channel lists (openai-simulator on the simulator)',
    value: { model: 'openai-simulator', prompt: 'a paper boat drifting down a rainy street', seconds: '4', size: '1280x720' },
  },
};
