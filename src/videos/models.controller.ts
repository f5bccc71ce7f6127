import { Controller, Get, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from '../auth/api-key.guard';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { OpenAiModelListDto } from './dto/model-list.dto';
import { ModelPageQueryDto } from './dto/model-page-query.dto';
import { ModelListings } from './model-listings.service';

/** OpenAI's `GET /v1/models`: the models the caller's key may use that a channel open to its group serves. */
@ApiTags('models')
@ApiBearerAuth('api-key')
@UseGuards(ApiKeyGuard)
@Controller('v1/models')
export class ModelsController {
  constructor(private readonly listings: ModelListings) {}

  @Get()
  @ApiOperation({
    summary:
      "The caller's models in OpenAI's list shape (GET /v1/videos/models has their capabilities and prices); `limit` and `after` page it",
  })
  @ApiOkResponse({ type: OpenAiModelListDto })
  list(@Req() req: AuthenticatedRequest, @Query() page: ModelPageQueryDto): Promise<OpenAiModelListDto> {
    return this.listings.openAiList({ user: req.user!, apiKey: req.apiKey }, page);
  }
}
