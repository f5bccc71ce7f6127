import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { IsInt, IsString, Matches } from 'class-validator';
import { IsOptionalNotNull } from '../../common/http/validation';

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
