import { Body, Delete, Get, HttpCode, Inject, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminApi } from '../auth/admin-api.decorator';
import { PriceRuleEntity } from '../billing/price-rule.entity';
import { PricingService } from '../billing/pricing.service';
import { CatalogService } from '../catalog/catalog.service';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { idParamPipe } from '../common/http/id-param.pipe';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { toCurrencyView, toMoney } from './currency.view';
import { assertPriceTarget, resolutionLeftUnpriced } from './price-target.rules';
import { AdminPriceDto, AdminPriceListDto, GroupRatioDto, GroupRatioParamsDto, UpsertPriceDto } from './dto/admin-price.dto';

const toPriceView = (rule: PriceRuleEntity, config: AppConfig) => ({
  id: rule.id,
  model: rule.model,
  resolution: rule.resolution,
  unit: rule.unit,
  duration: rule.duration,
  price: rule.price,
  audio_price: rule.audioPrice,
  // The price in money at QUOTA_PER_UNIT, for the console's inline editing.
  money: toMoney(rule.price, config),
});

@AdminApi('api/admin')
export class AdminPricesController {
  constructor(
    private readonly pricing: PricingService,
    private readonly catalog: CatalogService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('prices')
  @ApiOperation({
    summary: 'The price table, in quota units; `money` is the price in CURRENCY at QUOTA_PER_UNIT (10,000 units = 1 USD by default)',
  })
  @ApiOkResponse({ type: AdminPriceListDto })
  async list(): Promise<AdminPriceListDto> {
    return { data: (await this.pricing.listRules()).map((rule) => toPriceView(rule, this.config)), currency: toCurrencyView(this.config) };
  }

  @Put('prices')
  @ApiOperation({
    summary:
      'Create or replace the price of a model at a resolution (and duration); a 400 for a model not in the catalog or a resolution it does not list',
  })
  @ApiOkResponse({ type: AdminPriceDto })
  async upsert(@Body() body: UpsertPriceDto): Promise<AdminPriceDto> {
    const { byName } = await this.catalog.snapshot();
    assertPriceTarget((name) => byName.get(name), body);
    const rule = await this.pricing.upsertRule({
      model: body.model,
      resolution: body.resolution.toLowerCase(),
      unit: body.unit,
      duration: body.duration ?? 0,
      price: body.price,
      audioPrice: body.audio_price ?? null,
    });
    return toPriceView(rule, this.config);
  }

  @Delete('prices/:id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a price; 409 when its model lists a resolution that would be left without one' })
  async remove(@Param('id', idParamPipe) id: number) {
    const rule = (await this.pricing.listRules()).find((candidate) => candidate.id === id);
    const entry = rule ? (await this.catalog.snapshot()).byId.get(rule.model) : undefined;
    const unpriced = rule ? resolutionLeftUnpriced(entry, rule) : null;
    if (unpriced !== null)
      throw new AppError(
        ErrorCode.Conflict,
        `${rule!.model} offers ${unpriced}: it would have no price (remove ${unpriced} from the model's resolutions first)`,
      );
    await this.pricing.deleteRule(id);
  }

  @Get('group-ratios')
  async ratios() {
    return { data: (await this.pricing.listRatios()).map((r) => ({ group: r.group, ratio: r.ratio })) };
  }

  @Put('group-ratios/:group')
  async setRatio(@Param() { group }: GroupRatioParamsDto, @Body() body: GroupRatioDto) {
    const saved = await this.pricing.setRatio(group, body.ratio);
    return { group: saved.group, ratio: saved.ratio };
  }
}
