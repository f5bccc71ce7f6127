import type { ChannelSettingDefinition } from './channel-setting-definition';

/** Settings every channel takes, whatever its family (task sync reads them). */
export const COMMON_CHANNEL_SETTINGS: readonly ChannelSettingDefinition[] = [
  {
    name: 'poll_interval_ms',
    type: 'integer',
    default: null,
    required: false,
    secret: false,
    min: 1,
    max: 3_600_000,
    label: { en: 'Poll interval (ms)', 'zh-CN': '轮询间隔（毫秒）' },
    description: { en: 'Empty: the family default.', 'zh-CN': '留空：使用该系列的默认值。' },
  },
  {
    name: 'max_concurrency',
    type: 'integer',
    default: null,
    required: false,
    secret: false,
    min: 1,
    max: 10_000,
    label: { en: 'Max concurrency', 'zh-CN': '最大并发数' },
    description: { en: 'In-flight upstream calls on this channel; empty: no limit.', 'zh-CN': '此渠道同时进行的上游调用数；留空：不限。' },
  },
];
