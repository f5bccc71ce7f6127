import type { ChannelSettingDefinition, ChannelSettingType } from './channel-setting-definition';

/** A number a channel may leave empty (null), shown in clear, within `min` and `max`: what each common setting is. */
function optionalNumber(
  name: string,
  type: Extract<ChannelSettingType, 'integer' | 'number'>,
  min: number,
  max: number,
  text: Pick<ChannelSettingDefinition, 'label' | 'description'>,
): ChannelSettingDefinition {
  return { name, type, default: null, required: false, secret: false, min, max, ...text };
}

/** Settings every channel takes, whatever its family (task sync reads them). */
export const COMMON_CHANNEL_SETTINGS: readonly ChannelSettingDefinition[] = [
  optionalNumber('poll_interval_ms', 'integer', 1, 3_600_000, {
    label: { en: 'Poll interval (ms)', 'zh-CN': '轮询间隔（毫秒）' },
    description: { en: 'Empty: the family default.', 'zh-CN': '留空：使用该系列的默认值。' },
  }),
  optionalNumber('max_concurrency', 'integer', 1, 10_000, {
    label: { en: 'Max concurrency', 'zh-CN': '最大并发数' },
    description: { en: 'In-flight upstream calls on this channel; empty: no limit.', 'zh-CN': '此渠道同时进行的上游调用数；留空：不限。' },
  }),
  optionalNumber('usd_per_unit', 'number', 0, 1_000_000, {
    label: { en: 'USD per provider unit', 'zh-CN': '每个供应商计费单位的美元价' },
    description: {
      en:
        "What one of the provider's own units costs you, in USD (fal's billable units, Vidu's credits, Replicate's predict seconds): " +
        "a task's provider cost is the units it reported times this. Empty: the route's cost in the catalog, if any.",
      'zh-CN':
        '供应商自己的一个计费单位花费您多少美元（fal 的 billable units、Vidu 的积分、Replicate 的预测秒数）：任务的供应商成本 = 它上报的单位数 × 此值。留空：使用模型目录中该路由的成本（若有）。',
    },
  }),
];
