import { Injectable, Logger } from '@nestjs/common';
import type { BreakerOutcome } from '../../upstream/breaker/breaker-outcome';
import { ChannelBreakers, type Admission } from '../../upstream/breaker/channel-breakers.service';
import { ChannelsService } from '../../upstream/channels.service';
import { UpstreamCallRecorder } from '../../upstream/upstream-call-recorder.service';

/** What a submit's attempts tell their channel: the breaker's admission and outcome, the call's statistics, the channel's last outcome. */
@Injectable()
export class SubmitChannelReports {
  private readonly logger = new Logger('TaskSubmit');

  constructor(
    private readonly channels: ChannelsService,
    private readonly calls: UpstreamCallRecorder,
    private readonly breakers: ChannelBreakers,
  ) {}

  admit(channelId: number, deferred: boolean): ReturnType<ChannelBreakers['admit']> {
    return this.breakers.admit(channelId, deferred);
  }

  /** Starts timing a call; its end says whether it counts as an error. */
  startCall(channelId: number): ReturnType<UpstreamCallRecorder['start']> {
    return this.calls.start(channelId);
  }

  recordBreaker(channelId: number, said: BreakerOutcome, admitted: Admission | null): ReturnType<ChannelBreakers['record']> {
    return this.breakers.record(channelId, said, admitted);
  }

  /** Channel statistics are bookkeeping: failing to write them never changes the submit's answer. */
  async recordChannelOutcome(channelId: number, error: string | null): Promise<void> {
    await this.channels
      .recordOutcome(channelId, error)
      .catch((failure) => this.logger.warn(`channel ${channelId} outcome not recorded: ${failure}`));
  }
}
