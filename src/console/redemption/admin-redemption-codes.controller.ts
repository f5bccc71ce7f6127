import { Body, Get, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminApi } from '../../auth/admin-api.decorator';
import { RedemptionCodesService } from '../../billing/redemption/redemption-codes.service';
import { PageQueryDto } from '../dto/admin-query.dto';
import { CreateRedemptionCodesDto, IssuedRedemptionCodesDto, RedemptionCodeListDto } from './redemption-code.dto';
import { toRedemptionCodeView } from './redemption-code.view';

@ApiBadRequestResponse({ description: 'Bad input; `param` names the field' })
@AdminApi('api/admin/redemption-codes')
export class AdminRedemptionCodesController {
  constructor(private readonly codes: RedemptionCodesService) {}

  @Post()
  @ApiOperation({ summary: 'Make codes worth quota; the codes are in this answer only (stored hashed)' })
  @ApiCreatedResponse({ type: IssuedRedemptionCodesDto })
  async create(@Body() body: CreateRedemptionCodesDto): Promise<IssuedRedemptionCodesDto> {
    const expiresAt = body.expires_at == null ? null : body.expires_at * 1000;
    const issued = await this.codes.issue(body.quota, body.count, expiresAt);
    return { data: issued.map(({ entity, code }) => ({ ...toRedemptionCodeView(entity, this.codes.stateOf(entity)), code })) };
  }

  @Get()
  @ApiOperation({ summary: 'List codes, newest first, with their state (unused, redeemed, expired); never the codes themselves' })
  @ApiOkResponse({ type: RedemptionCodeListDto })
  async list(@Query() query: PageQueryDto): Promise<RedemptionCodeListDto> {
    const { data, total } = await this.codes.list(query.page, query.page_size);
    return { data: data.map((code) => toRedemptionCodeView(code, this.codes.stateOf(code))), total };
  }
}
