import { Injectable, Logger } from '@nestjs/common';
import { PeriodicWriter } from '../common/runtime/periodic-writer';
import { ChannelRepository } from './channel.repository';

/** How often this instance adds the submits it counted to the channels' `request_count`. */
const FLUSH_INTERVAL_MS = 2_000;

/**
 * Counts the submits a channel accepted in memory and adds them to `channels.request_count` every
 * couple of seconds (and at shutdown): an accepted submit then costs no write of its own, and
 * instances do not all queue on the same channel row. A failed write keeps its counts for the next.
 * Failed calls are written at once, with their error (ChannelsService.recordOutcome).
 */
@Injectable()
export class ChannelRequestCounter extends PeriodicWriter {
  private readonly logger = new Logger('ChannelRequestCounter');
  private pending = new Map<number, number>();

  constructor(private readonly channels: ChannelRepository) {
    super(FLUSH_INTERVAL_MS);
  }

  count(channelId: number): void {
    this.pending.set(channelId, (this.pending.get(channelId) ?? 0) + 1);
  }

  protected async write(): Promise<void> {
    const counts = this.pending;
    this.pending = new Map();
    for (const [channelId, requests] of counts) {
      try {
        await this.channels.addRequests(channelId, requests);
      } catch (error) {
        this.pending.set(channelId, (this.pending.get(channelId) ?? 0) + requests);
        this.logger.warn(
          `request count of channel ${channelId} not written (kept for the next try): ${(error as Error)?.message ?? error}`,
        );
      }
    }
  }
}
