import type { ChannelSettingDefinition } from '../channel-setting-definition';

/** `settings.push` of a family whose provider calls back: false keeps its channel polled as before (no callback URL is sent). */
export const PUSH_SETTING: ChannelSettingDefinition = {
  name: 'push',
  type: 'boolean',
  default: null,
  required: false,
  secret: false,
  label: { en: 'Provider callbacks (push)', 'zh-CN': '供应商回调（推送）' },
  description: {
    en: 'false: no callback URL is sent and tasks are polled. Empty: on when PUBLIC_BASE_URL is set, polls become a safety net (PROVIDER_PUSH_POLL_MS).',
    'zh-CN': 'false：不发送回调地址，任务照常轮询。留空：设置了 PUBLIC_BASE_URL 时开启，轮询仅作兜底（PROVIDER_PUSH_POLL_MS）。',
  },
};
