import { Body, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminApi } from '../auth/admin-api.decorator';
import { idParamPipe } from '../common/http/id-param.pipe';
import { FamilyRegistry } from '../families/family-registry';
import { ModelCatalog } from '../families/model-catalog.service';
import type { ChannelSettings } from '../upstream/channel.entity';
import { ChannelInput, ChannelsService } from '../upstream/channels.service';
import { assertApiKeyFormat, assertChannelInput, familyOfChannelPlatform, sentSettings } from './channel-input.rules';
import { ChannelUpstreamReadsService, EndpointSchemaDto, UpstreamModelListDto } from './channel-upstream-reads.service';
import { ChannelTestResultDto, ConsoleChannelProbeService } from './console-channel-probe.service';
import { CreateChannelDto, EndpointSchemaQueryDto, UpdateChannelDto } from './dto/admin-channel.dto';
import { ChannelCreatedDto, ChannelDto, ChannelListDto } from './dto/admin-responses.dto';

@ApiBadRequestResponse({ description: 'Bad input; `param` names the field' })
@AdminApi('api/admin/channels')
export class AdminChannelsController {
  constructor(
    private readonly channels: ChannelsService,
    private readonly probe: ConsoleChannelProbeService,
    private readonly families: FamilyRegistry,
    private readonly catalog: ModelCatalog,
    private readonly upstream: ChannelUpstreamReadsService,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create an upstream channel; its api_key is never shown again' })
  @ApiCreatedResponse({ type: ChannelCreatedDto })
  async create(@Body() body: CreateChannelDto): Promise<ChannelCreatedDto> {
    const settings = sentSettings(body.settings);
    const family = familyOfChannelPlatform(this.families.all(), body.platform);
    assertChannelInput(this.families.all(), family, body.models, settings, settings);
    assertApiKeyFormat(family, body.api_key);
    await this.catalog.assertRoutedOn(family.platform, body.models);
    const channel = await this.channels.create({ platform: body.platform, ...channelFields(body, settings) });
    return { id: channel.id };
  }

  @Get()
  @ApiOkResponse({ type: ChannelListDto })
  async list(): Promise<ChannelListDto> {
    return { data: (await this.channels.list()).map((channel) => this.channels.view(channel)) };
  }

  @Get(':id')
  @ApiOkResponse({ type: ChannelDto })
  @ApiNotFoundResponse({ description: 'Unknown channel' })
  async get(@Param('id', idParamPipe) id: number): Promise<ChannelDto> {
    return this.channels.view(await this.channels.get(id));
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Edit, enable or disable a channel (settings are merged into the current ones)' })
  @ApiOkResponse({ type: ChannelDto })
  @ApiNotFoundResponse({ description: 'Unknown channel' })
  async update(@Param('id', idParamPipe) id: number, @Body() body: UpdateChannelDto): Promise<ChannelDto> {
    const settings = sentSettings(body.settings);
    const current = await this.channels.get(id);
    // The rules hold for the channel as it will be: the change merged into what it is now.
    const family = this.families.ofPlatform(current.platform);
    const merged = settings ? { ...(current.settings ?? {}), ...settings } : current.settings;
    // A channel left by a removed family can still be edited (disabled, say): no family rules to hold it to.
    if (family) assertChannelInput(this.families.all(), family, body.models ?? current.models, settings, merged);
    if (family) assertApiKeyFormat(family, body.api_key);
    // Only models sent now: a model retired or deleted since does not keep a channel from being edited.
    if (family && body.models) await this.catalog.assertRoutedOn(family.platform, body.models);
    const channel = await this.channels.update(id, channelFields(body, settings));
    return this.channels.view(channel);
  }

  @Post(':id/breaker/close')
  @HttpCode(200)
  @ApiOperation({
    summary: "Close the channel's breaker by hand: submits go to it again at once (on every instance when REDIS_URL is set)",
  })
  @ApiOkResponse({ type: ChannelDto })
  @ApiNotFoundResponse({ description: 'Unknown channel' })
  async closeBreaker(@Param('id', idParamPipe) id: number): Promise<ChannelDto> {
    return this.channels.view(await this.channels.closeBreaker(id));
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({ summary: "Test connectivity: the family adapter's probe, or a plain reachability check of base_url" })
  @ApiOkResponse({ type: ChannelTestResultDto })
  test(@Param('id', idParamPipe) id: number): Promise<ChannelTestResultDto> {
    return this.probe.test(id);
  }

  @Get(':id/schema')
  @ApiOperation({
    summary:
      "A fal endpoint's or Replicate model's input schema, read through this channel, with the route option input_map proposed from it",
  })
  @ApiOkResponse({ type: EndpointSchemaDto })
  @ApiNotFoundResponse({ description: 'No such channel, or its provider has no such endpoint' })
  async schema(@Param('id', idParamPipe) id: number, @Query() query: EndpointSchemaQueryDto): Promise<EndpointSchemaDto> {
    return this.upstream.schema(id, query.upstream_model);
  }

  @Get(':id/upstream-models')
  @ApiOperation({ summary: "The models this channel's upstream lists (an OpenAI-compatible upstream's GET /v1/models)" })
  @ApiOkResponse({ type: UpstreamModelListDto })
  async upstreamModels(@Param('id', idParamPipe) id: number): Promise<UpstreamModelListDto> {
    return this.upstream.upstreamModels(id);
  }
}

/** The channel's fields as the API names them (all but the platform, which never changes). */
function channelFields(body: CreateChannelDto, settings: ChannelSettings | undefined): Omit<ChannelInput, 'platform'>;
function channelFields(body: UpdateChannelDto, settings: ChannelSettings | undefined): Partial<ChannelInput>;
function channelFields(body: UpdateChannelDto, settings: ChannelSettings | undefined): Partial<ChannelInput> {
  return {
    name: body.name,
    baseUrl: body.base_url,
    apiKey: body.api_key,
    models: body.models,
    modelMapping: body.model_mapping,
    settings,
    groups: body.groups,
    priority: body.priority,
    weight: body.weight,
    status: body.status,
  };
}
