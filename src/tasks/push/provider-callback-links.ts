import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ServerSecret } from '../../database/server-secret.service';
import type { ChannelEntity } from '../../upstream/channel.entity';
import type { UpstreamAdapter } from '../../upstream/upstream-adapter';
import { CALLBACK_TOKEN_PURPOSE, callbackTokenFor, taskIdOfCallbackToken } from './callback-token';
import { pushIsOn } from './push-is-on';

/** The route providers call back on (no API key, no client rate limit: the token is the credential). */
export const PROVIDER_CALLBACKS_PATH = '/v1/provider-callbacks';

/** The callback URL of a task, `{PUBLIC_BASE_URL}/v1/provider-callbacks/{platform}/{token}`, and the task a token names. */
@Injectable()
export class ProviderCallbackLinks {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secret: ServerSecret,
  ) {}

  /** The URL the provider is asked to call back, when push is on for the channel; undefined otherwise. */
  urlFor(task: { taskId: string; platform: string }, channel: ChannelEntity, adapter: UpstreamAdapter): string | undefined {
    if (!pushIsOn(channel, adapter, this.config)) return undefined;
    return this.url(adapter.platform, callbackTokenFor(task.taskId, this.secret.derive(CALLBACK_TOKEN_PURPOSE)));
  }

  url(platform: string, token: string): string {
    return `${this.config.publicBaseUrl}${PROVIDER_CALLBACKS_PATH}/${encodeURIComponent(platform)}/${token}`;
  }

  /** The task id a callback's token names, or null for a token this gateway did not make. */
  taskIdOf(token: string): string | null {
    return taskIdOfCallbackToken(token, this.secret.deriveAll(CALLBACK_TOKEN_PURPOSE));
  }
}
