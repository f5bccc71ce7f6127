import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { buildMessage, IsString, ValidateBy, ValidationOptions } from 'class-validator';
import { IsOptionalOrEmpty, IsRequired } from '../common/http/validation';

/** OpenAI's `seconds`: a JSON integer, or (what the SDKs and forms send) its decimal text; at least 1 either way. */
function IsWholeSeconds(options?: ValidationOptions) {
  return ValidateBy(
    {
      name: 'isWholeSeconds',
      validator: {
        validate: (value: unknown) =>
          (typeof value === 'string' && /^\d+$/.test(value.trim()) && Number(value) >= 1) ||
          (typeof value === 'number' && Number.isInteger(value) && value >= 1),
        defaultMessage: buildMessage((each) => `${each}$property must be a whole number of seconds, 1 or more`, options),
      },
    },
    options,
  );
}

/**
 * The fields every family's submit shares, on both surfaces, checked before the model's family reads
 * the body: `model` routes it, and `seconds` (OpenAI's name) is one rule whichever family serves the
 * model. Each family's own schema then checks the rest, and the rules across its fields.
 */
export class SubmitCommonFieldsDto {
  @ApiProperty({ example: 'alpha/v6' })
  // JSON null is no model at all: `model is required`, as a missing one.
  @Transform(({ value }: { value: unknown }) => value ?? undefined)
  @IsRequired()
  @IsString()
  model: string;

  @ApiPropertyOptional({ example: '5', description: "OpenAI's name for `duration`: a whole number of seconds, as text or a number" })
  // An empty form field is a field not given, as the family schemas take it.
  @IsOptionalOrEmpty()
  @IsWholeSeconds()
  seconds?: string | number;
}
