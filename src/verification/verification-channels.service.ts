import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { GAMMA_PLATFORM } from '../families/gamma/gamma-platform';
import { ChannelEntity } from '../upstream/channel.entity';
import { ChannelsService } from '../upstream/channels.service';
import { controlSettingsOf } from '../families/gamma/control-plane/gamma-control.types';

/** Which family C channel's control plane serves verification. */
@Injectable()
export class VerificationChannels {
  constructor(private readonly channels: ChannelsService) {}

  /** For a new session: the enabled channel with control plane settings, highest priority first. */
  async forNewSession(): Promise<ChannelEntity> {
    const eligible = (await this.channels.list())
      .filter((channel) => this.holdsVerification(channel) && channel.status === 'enabled' && controlSettingsOf(channel))
      .sort((a, b) => b.priority - a.priority || a.id - b.id);
    if (eligible.length === 0) {
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        'no verification channel is configured (an enabled family C channel with control plane settings)',
      );
    }
    return eligible[0];
  }

  /** The channel that holds a session, group or asset (the provider account knows it only there). */
  async holding(channelId: number): Promise<ChannelEntity> {
    const channel = (await this.channels.list()).find((candidate) => candidate.id === channelId);
    if (!channel || !controlSettingsOf(channel)) {
      throw new AppError(ErrorCode.ServiceUnavailable, 'the verification channel that holds this resource is no longer available');
    }
    return channel;
  }

  /** Channels on the same provider account as `channelId` (same control plane and access key): they can use its assets. */
  async sameAccount(channelId: number): Promise<number[]> {
    const all = await this.channels.list();
    const home = all.find((channel) => channel.id === channelId);
    const homeSettings = home ? controlSettingsOf(home) : null;
    if (!homeSettings) return [channelId];
    return all
      .filter((channel) => {
        const settings = controlSettingsOf(channel);
        return (
          this.holdsVerification(channel) &&
          settings?.accessKey === homeSettings.accessKey &&
          settings.projectName === homeSettings.projectName
        );
      })
      .map((channel) => channel.id);
  }

  private holdsVerification(channel: ChannelEntity): boolean {
    return channel.platform === GAMMA_PLATFORM;
  }
}
