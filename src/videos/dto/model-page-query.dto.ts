import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { RequestValidationPipe, ToleratesUnknownFields } from '../../common/http/validation';

const MESSAGE = 'limit must be an integer between 1 and 1000';

/** `GET /v1/models` and `GET /v1/videos/models`: a page of the list when either is given; neither, the whole list. */
@ToleratesUnknownFields()
export class ModelPageQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 1000, description: 'at most this many models (with `after` alone: 100)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: MESSAGE })
  @Min(1, { message: MESSAGE })
  @Max(1000, { message: MESSAGE })
  limit?: number;

  @ApiPropertyOptional({ description: "a model id: the models after it, in id order (the previous page's `last_id`)" })
  @IsOptional()
  @IsString()
  after?: string;
}

const pipe = new RequestValidationPipe();

/** The page a list request's query asks for, checked as `@Query()` would (GET /v1/videos/models is hot-dispatched, which passes no `@Query()`). */
export function modelPageOf(query: unknown): Promise<ModelPageQueryDto> {
  return pipe.transform(query ?? {}, { type: 'query', metatype: ModelPageQueryDto }) as Promise<ModelPageQueryDto>;
}
