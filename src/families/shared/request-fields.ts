import { applyDecorators, type Type as Class } from '@nestjs/common';
import { ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsObject, IsString, Matches, ValidateNested } from 'class-validator';
import { IntegerBetween, IsOptionalNotNull, IsOptionalOrEmpty } from '../../common/http/validation';

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

/** What an image field that takes an http(s) URL or a data URI says of anything else. */
export const URL_OR_DATA_URI_MESSAGE = '$property must be an http(s) URL or a data URI';

/** An optional image as text (a URL, or a data URI where the family takes one); `message` says what it must be. */
export const ImageSourceField = (message: string, doc: ApiPropertyOptions) =>
  applyDecorators(ApiPropertyOptional(doc), IsOptionalNotNull(), IsString({ message }));

/** An optional switch, never null. */
export const OptionalBooleanField = (doc: ApiPropertyOptions) =>
  applyDecorators(ApiPropertyOptional(doc), IsOptionalNotNull(), IsBoolean({ message: '$property must be true or false' }));

/** An optional object of the `type` schema, checked field by field; missing or `""` is absent. */
export const NestedObjectField = (type: Class<object>, doc: ApiPropertyOptions = {}) =>
  applyDecorators(
    ApiPropertyOptional({ type, ...doc }),
    IsOptionalOrEmpty(),
    IsObject(),
    ValidateNested(),
    Type(() => type),
  );

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
