import { HttpService } from '@nestjs/axios';
import { Injectable } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { firstValueFrom } from 'rxjs';
import { ChannelsService } from '../upstream/channels.service';
import { UpstreamError } from '../upstream/upstream-adapter';
import { FamilyRegistry } from '../families/family-registry';

const REACHABILITY_TIMEOUT_MS = 5_000;

export class ChannelTestResultDto {
  @ApiProperty() ok: boolean;
  @ApiProperty({
    enum: ['probe', 'reachability'],
    description: "probe: the family adapter's authenticated call; reachability: any HTTP answer from base_url",
  })
  method: 'probe' | 'reachability';
  @ApiProperty() latency_ms: number;
  @ApiPropertyOptional({ description: 'HTTP status of the reachability check' }) http_status?: number;
  @ApiPropertyOptional() error?: string;
}

/**
 * "Test connectivity" for the console: the family adapter's probe when it has one (proves the
 * key works), otherwise a plain HTTP request to the base URL (proves the host answers).
 * Results are not counted in the channel's error rate, which measures real traffic.
 */
@Injectable()
export class ConsoleChannelProbeService {
  constructor(
    private readonly channels: ChannelsService,
    private readonly families: FamilyRegistry,
    private readonly http: HttpService,
  ) {}

  async test(channelId: number): Promise<ChannelTestResultDto> {
    const channel = await this.channels.get(channelId);
    const adapter = this.families.findAdapter(channel.platform);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    if (adapter?.probe) {
      try {
        await adapter.probe(channel);
        return { ok: true, method: 'probe', latency_ms: elapsed() };
      } catch (error) {
        const message = error instanceof UpstreamError ? `${error.kind}: ${error.message}` : String((error as Error)?.message ?? error);
        return { ok: false, method: 'probe', latency_ms: elapsed(), error: message };
      }
    }
    try {
      const response = await firstValueFrom(
        this.http.get(channel.baseUrl, {
          timeout: REACHABILITY_TIMEOUT_MS,
          maxRedirects: 0,
          validateStatus: () => true,
          responseType: 'stream',
        }),
      );
      (response.data as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      return {
        ok: response.status < 500,
        method: 'reachability',
        latency_ms: elapsed(),
        http_status: response.status,
        ...(response.status >= 500 ? { error: `HTTP ${response.status}` } : {}),
      };
    } catch (error) {
      const err = error as { code?: string; message?: string };
      return {
        ok: false,
        method: 'reachability',
        latency_ms: elapsed(),
        error: err.code ? `${err.code}: ${err.message}` : String(err.message ?? error),
      };
    }
  }
}
