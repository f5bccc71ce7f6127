import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { FamilyRegistry } from '../families/family-registry';
import { inputMapOption, proposeInputMap } from '../families/shared/endpoint-schema';
import type { ChannelEntity } from '../upstream/channel.entity';
import { ChannelsService } from '../upstream/channels.service';
import type { EndpointInputSchema } from '../upstream/endpoint-input-schema';
import { UpstreamError, type UpstreamAdapter } from '../upstream/upstream-adapter';

export class EndpointSchemaDto {
  @ApiProperty({ example: 'fal-ai/kling-video/v2.5-turbo/pro/text-to-video' }) upstream_model: string;
  @ApiProperty({
    description:
      "the endpoint's input as its provider publishes it: `{properties: {<name>: {type, enum?, default?, description?}}, required}`",
  })
  schema: EndpointInputSchema;
  @ApiProperty({
    example: { prompt: 'prompt', first_frame: 'image_url', seconds: { field: 'duration', as: 'string' } },
    description:
      'the proposed route option `input_map`: each gateway field matched to the input property that takes it (edit before saving)',
  })
  input_map: Record<string, unknown>;
}

export class UpstreamModelListDto {
  @ApiProperty({ example: [{ id: 'sora-2' }] }) data: { id: string }[];
}

/**
 * What a channel's upstream publishes about itself, read with the channel's key for the operator:
 * a hosted endpoint's input schema (and the input_map proposed from it), an upstream's model list.
 * The provider's words never reach the answer: a failure is a 503 saying which channel could not answer.
 */
@Injectable()
export class ChannelUpstreamReadsService {
  constructor(
    private readonly channels: ChannelsService,
    private readonly families: FamilyRegistry,
  ) {}

  async schema(channelId: number, upstreamModel: string): Promise<EndpointSchemaDto> {
    const channel = await this.channels.get(channelId);
    const adapter = this.adapterOf(channel, 'inputSchema', 'publishes no input schemas (fal and Replicate do)');
    const schema = await this.ask(channel, () => adapter.inputSchema!(channel, upstreamModel));
    if (schema === null) throw AppError.notFound(`${channel.platform} has no endpoint ${upstreamModel} (or publishes no schema for it)`);
    return { upstream_model: upstreamModel, schema, input_map: inputMapOption(proposeInputMap(schema)) };
  }

  async upstreamModels(channelId: number): Promise<UpstreamModelListDto> {
    const channel = await this.channels.get(channelId);
    const adapter = this.adapterOf(channel, 'upstreamModels', 'lists no models (OpenAI-compatible upstreams do)');
    const ids = await this.ask(channel, () => adapter.upstreamModels!(channel));
    return { data: ids.map((id) => ({ id })) };
  }

  private adapterOf(channel: ChannelEntity, method: 'inputSchema' | 'upstreamModels', missing: string): UpstreamAdapter {
    const adapter = this.families.findAdapter(channel.platform);
    if (!adapter?.[method]) throw new AppError(ErrorCode.Conflict, `a ${channel.platform} channel ${missing}`);
    return adapter;
  }

  /** The provider's answer; its failure a retryable 503 naming the channel (a refused key a 409: the channel's to fix). */
  private async ask<T>(channel: ChannelEntity, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof UpstreamError && error.kind === 'channel')
        throw new AppError(ErrorCode.Conflict, `channel ${channel.name} was refused by its provider: check its api_key and account`);
      if (error instanceof UpstreamError || error instanceof Error)
        throw new AppError(ErrorCode.ServiceUnavailable, `channel ${channel.name}'s provider could not answer; retry later`, {
          retryAfterSeconds: 5,
        });
      throw error;
    }
  }
}
