import type { ChannelSettingDefinition } from '../channel-setting-definition';
import type { ChannelEntity } from '../../upstream/channel.entity';

/** Where fal publishes the public keys its webhooks are signed with. */
export const FAL_DEFAULT_JWKS_URL = 'https://rest.alpha.fal.ai/.well-known/jwks.json';

/** `settings.webhook_jwks_url`: the JWKS a fal channel's callbacks are checked against. */
export const FAL_JWKS_SETTING: ChannelSettingDefinition = {
  name: 'webhook_jwks_url',
  type: 'url',
  default: FAL_DEFAULT_JWKS_URL,
  required: false,
  secret: false,
  label: { en: 'Webhook JWKS URL', 'zh-CN': 'Webhook JWKS 地址' },
  description: {
    en: "The public keys fal signs its callbacks with (ED25519). Empty: fal's own.",
    'zh-CN': 'fal 用来签名回调的公钥（ED25519）。留空：使用 fal 官方地址。',
  },
};

export function falJwksUrlOf(channel: ChannelEntity): string {
  const configured = channel.settings?.webhook_jwks_url;
  return typeof configured === 'string' && configured !== '' ? configured : FAL_DEFAULT_JWKS_URL;
}
