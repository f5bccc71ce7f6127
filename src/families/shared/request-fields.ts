import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { IsInt, IsObject, IsString, Matches } from 'class-validator';
import { IntegerBetween, IsOptionalNotNull } from '../../common/http/validation';

/** What a `size` that is not `<width>x<height>` is told. */
export const PIXEL_SIZE_MESSAGE = 'size must be <width>x<height> in pixels, e.g. 1280x720';

/** An optional `size`, `<width>x<height>` in pixels (what it sets is the family's, said in `doc`). */
export const PixelSizeField = (doc: ApiPropertyOptions) =>
  applyDecorators(
    ApiPropertyOptional(doc),
    IsOptionalNotNull(),
    IsString({ message: PIXEL_SIZE_MESSAGE }),
    Matches(/^\d{2,5}x\d{2,5}$/, { message: PIXEL_SIZE_MESSAGE }),
  );

/** An optional length in whole seconds (`duration`, also `seconds`); which lengths a model takes is checked after. */
export const WholeSecondsField = (doc: ApiPropertyOptions, message = '$property must be a whole number of seconds') =>
  applyDecorators(ApiPropertyOptional(doc), IsOptionalNotNull(), IsInt({ message }));

/** An optional text, never null (which values a model takes is checked after). */
export const OptionalTextField = (doc: ApiPropertyOptions) => applyDecorators(ApiPropertyOptional(doc), IsOptionalNotNull(), IsString());

/** An optional `seed` from 0 to `max` (what the provider does without one is said in `doc`). */
export const SeedField = (max: number, doc: ApiPropertyOptions = {}) =>
  applyDecorators(
    ApiPropertyOptional({ minimum: 0, maximum: max, ...doc }),
    IsOptionalNotNull(),
    IntegerBetween(0, max, `$property must be an integer between 0 and ${max}`),
  );

/** An optional `metadata` object; what the family does with its keys is said in `doc` (with an example). */
export const MetadataField = (doc: Pick<ApiPropertyOptions, 'example' | 'description'>) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'object', additionalProperties: true, ...doc }),
    IsOptionalNotNull(),
    IsObject({ message: '$property must be an object' }),
  );

/** A 1x1 PNG as a data URI: for request examples of providers that take data URIs (an example needs no host the gateway must resolve). */
export const EXAMPLE_FRAME =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
