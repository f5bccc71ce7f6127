// Customer overview: balance; spend and refunds per day (one scale, side by side); the balance over
// time in its own chart (so it never dwarfs the spend); spend by model.
import { Chart } from '../components/chart.js';
import { Card, ErrorNote, PageHeader, Stat } from '../components/ui.js';
import { dayDate, money, num, quota, shortDate } from '../lib/format.js';
import { html } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';
import { useUrlState } from '../lib/url-state.js';
import { RedeemCode } from './redeem-code.js';

const RANGES = ['7d', '30d'];

/** The overview endpoint (contract item 2), or the same figures from the older /usage. */
function useOverview(range) {
  const overview = useApi('/console/api/overview', { range });
  const fallback = useApi(overview.error?.status === 404 ? '/console/api/usage' : null, {
    days: parseInt(range, 10),
    tz_offset: -new Date().getTimezoneOffset(),
  });
  if (overview.data) return { data: overview.data, error: null, reload: overview.reload };
  if (fallback.data) {
    const rows = fallback.data.data;
    return {
      data: {
        range,
        days: rows.map((r) => r.date),
        spend_by_day: rows.map((r) => r.spent),
        refund_by_day: rows.map((r) => r.refunded),
        balance_by_day: rows.map((r) => r.balance),
        balance: fallback.data.quota,
        spend_by_model: null,
        tasks: rows.reduce((sum, r) => sum + r.tasks, 0),
      },
      error: null,
      reload: fallback.reload,
    };
  }
  return { data: null, error: overview.error?.status === 404 ? fallback.error : overview.error, reload: overview.reload };
}

export function Overview() {
  const [query, setQuery] = useUrlState({ range: '30d' });
  const range = RANGES.includes(query.range) ? query.range : '30d';
  const { data, error, reload } = useOverview(range);
  const sum = (values) => (values ?? []).reduce((a, b) => a + (b ?? 0), 0);
  const spent = sum(data?.spend_by_day);
  const refunded = sum(data?.refund_by_day);
  const tasks = data ? (data.tasks ?? sum(data.spend_by_model?.map((m) => m.tasks))) : null;
  const days = data?.days.map((d) => shortDate(dayDate(d))) ?? [];
  const rangeLabel = t(`overview.rangeInline.${range}`);
  const withMoney = (v) => (money(v) ? html`${quota(v)}<small>${money(v)}</small>` : quota(v));

  return html`<div class="overview">
    <${PageHeader} title=${t('overview.title')} intro=${t('overview.intro')} actions=${html`
      <div class="segmented" role="group" aria-label=${t('overview.period')}>
        ${RANGES.map((r) => html`<button type="button" aria-pressed=${r === range ? 'true' : 'false'} onClick=${() => setQuery({ range: r })}>${t(`overview.range.${r}`)}</button>`)}
      </div>`} />
    <${ErrorNote} error=${error} onRetry=${reload} />
    ${
      data
        ? html`
      <div class="stats" aria-live="polite">
        <${Stat} id="balance" icon="wallet" label=${t('overview.balance')} value=${withMoney(data.balance)} />
        <${Stat} id="spent" icon="trending-down" label=${t('overview.spent', { range: rangeLabel })} value=${withMoney(spent)} sub=${t('overview.netNote')} />
        <${Stat} id="refunded" icon="rotate-ccw" label=${t('overview.refunded', { range: rangeLabel })} value=${withMoney(refunded)} />
        <${Stat} id="tasks" icon="clapperboard" label=${t('overview.tasks', { range: rangeLabel })} value=${num(tasks)} />
      </div>
      <${RedeemCode} onRedeemed=${reload} />
      <${Card} title=${t('overview.spendByDay')} id="spend-card">
        <${Chart} id="spend-chart" categories=${days} format=${quota}
          label=${t('overview.spendSummary', { range: rangeLabel, spent: quota(spent), refunded: quota(refunded) })}
          series=${[
            { label: t('overview.series.spent'), color: '--chart-spend', kind: 'bar', values: data.spend_by_day },
            { label: t('overview.series.refunded'), color: '--chart-refund', kind: 'bar', values: data.refund_by_day },
          ]} />
      <//>
      <div class="grid-2">
        <${Card} title=${t('overview.balanceOverTime')} id="balance-card">
          <${Chart} id="balance-chart" categories=${days} format=${quota} height=${220}
            label=${t('overview.balanceSummary', { range: rangeLabel, first: quota(data.balance_by_day.find((v) => v !== null) ?? 0), last: quota(data.balance_by_day[data.balance_by_day.length - 1]) })}
            series=${[{ label: t('overview.series.balance'), color: '--chart-balance', kind: 'line', values: data.balance_by_day, total: 'last' }]} />
        <//>
        <${Card} title=${t('overview.byModel')} id="model-card">
          ${data.spend_by_model === null ? html`<p class="muted">${t('overview.byModelMissing')}</p>` : html`<${ModelBars} models=${data.spend_by_model} />`}
        <//>
      </div>`
        : null
    }
  </div>`;
}

/** Spend per model as labelled horizontal bars (one scale: the largest spend is the full width). */
function ModelBars({ models }) {
  if (!models.length) return html`<p class="muted">${t('overview.byModelNone')}</p>`;
  const max = Math.max(...models.map((m) => m.quota), 1);
  return html`<ul class="hbars" aria-label=${t('overview.byModel')}>
    ${models.map(
      (m) => html`<li data-model=${m.model}>
      <div class="hbar-label"><span><code>${m.model}</code></span><span>${quota(m.quota)}${money(m.quota) ? ` · ${money(m.quota)}` : ''} · ${t('overview.taskCount', { n: num(m.tasks) })}</span></div>
      <div class="hbar-track" aria-hidden="true"><div class="hbar-fill" style=${`width:${Math.max(1, (m.quota / max) * 100)}%`}></div></div>
    </li>`,
    )}
  </ul>`;
}
