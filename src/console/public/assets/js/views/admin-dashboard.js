// Admin dashboard (the admin's home): tasks per bucket by status, net quota and refunds, outcomes by
// channel (with what customers paid beside what the provider reported of its own cost; a client's
// cancel apart, never a failure) and model, upstream latency and errors, the channels' breakers,
// quota by model, stuck tasks, webhook failures and the video store, and the margin per channel and per
// model (the usage report's, top 10 by USD charged), over 1 h, 24 h, 7 d or 30 d
// (GET /api/admin/dashboard?range=...).
import { BreakerCell } from '../components/breaker-bits.js';
import { Chart } from '../components/chart.js';
import { DataTable } from '../components/data-table.js';
import { usageKeyText, usd } from '../components/usage-bits.js';
import { Button, Card, ErrorNote, Loading, PageHeader, Stat } from '../components/ui.js';
import { amount, bytes, moneyIn, rate } from '../lib/admin-format.js';
import { duration, num, quota, shortDate } from '../lib/format.js';
import { html } from '../lib/html.js';
import { langStore, t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';
import { hrefFor, useUrlState } from '../lib/url-state.js';

const RANGES = ['1h', '24h', '7d', '30d'];
const REFRESH_MS = { '1h': 15_000, '24h': 60_000, '7d': 120_000, '30d': 300_000 };
/**
 * The gateway's task statuses folded into the six a reader tells apart, each with its chart colour
 * (completed and failed first: the success rate is theirs; a client's cancel is neither).
 */
const STATUS_SERIES = [
  { key: 'completed', from: ['SUCCESS'], color: '--chart-ok' },
  { key: 'failed', from: ['FAILURE'], color: '--chart-fail' },
  { key: 'cancelled', from: ['CANCELLED'], color: '--chart-cancelled' },
  { key: 'rejected', from: ['REJECTED'], color: '--chart-rejected' },
  { key: 'in_progress', from: ['IN_PROGRESS'], color: '--chart-running' },
  { key: 'queued', from: ['SUBMITTING', 'NOT_START', 'QUEUED'], color: '--chart-queued' },
];

export function AdminDashboard() {
  const [query, setQuery] = useUrlState({ range: '24h' });
  const range = RANGES.includes(query.range) ? query.range : '24h';
  const { data, error, reload, loading } = useApi('/api/admin/dashboard', { range }, { poll: () => REFRESH_MS[range] });
  const rangeLabel = t(`dash.range.${range}`);

  return html`<div class="admin-dashboard">
    <${PageHeader} title=${t('dash.title')} intro=${t('dash.intro')} actions=${html`
      <div class="segmented" role="group" aria-label=${t('dash.period')}>
        ${RANGES.map((r) => html`<button type="button" data-range=${r} aria-pressed=${r === range ? 'true' : 'false'} onClick=${() => setQuery({ range: r })}>${t(`dash.range.${r}`)}</button>`)}
      </div>
      <${Button} kind="secondary" small icon="refresh-cw" onClick=${reload}>${t('common.refresh')}<//>`} />
    <${ErrorNote} error=${error} onRetry=${reload} />
    ${data ? html`<${Body} data=${data} rangeLabel=${rangeLabel} />` : loading ? html`<${Loading} />` : null}
  </div>`;
}

function Body({ data, rangeLabel }) {
  const during = t(`dash.during.${data.range}`);
  const sum = (values) => (values ?? []).reduce((a, b) => a + (b ?? 0), 0);
  // Stacked bars: each status is drawn as the running sum up to it, tallest first, so the smaller
  // sums paint over it and every bucket's bar is its total split by status; the legend reads each
  // status's own count (top of the stack first, as the eye reads it).
  const counts = STATUS_SERIES.map((s) =>
    data.buckets.map((_b, i) => s.from.reduce((n, status) => n + (data.tasks_by_status[status]?.[i] ?? 0), 0)),
  );
  const series = STATUS_SERIES.map((s, k) => ({
    label: t(`dash.status.${s.key}`),
    color: s.color,
    kind: 'bar',
    values: counts[k],
    plot: data.buckets.map((_b, i) => counts.slice(0, k + 1).reduce((n, c) => n + c[i], 0)),
  })).reverse();
  const total = series.reduce((n, s) => n + sum(s.values), 0);
  const done = sum(counts[0]) + sum(counts[1]);
  const successRate = done ? sum(counts[0]) / done : null;
  const netQuota = sum(data.quota_by_bucket);
  const categories = data.buckets.map((at) => bucketLabel(at, data.bucket_seconds));
  const axisLabels = data.buckets.map((at) => axisLabel(at, data.bucket_seconds));
  const per = t(`dash.per.${data.bucket_seconds}`);
  const currency = data.currency;
  const withMoney = (v) => (moneyIn(v, currency) ? html`${quota(v)}<small>${moneyIn(v, currency)}</small>` : quota(v));
  const stuck = data.stuck_tasks;
  const hooks = data.webhooks;
  const store = data.video_store;
  const kept = data.housekeeping;
  const breakers = data.breakers ?? [];
  const open = breakers.filter((b) => b.state === 'open').length;

  return html`
    <div class="stats" aria-live="polite">
      <${Stat} id="tasks" icon="clapperboard" label=${t('dash.stat.tasks', { range: rangeLabel })} value=${num(total)}
        sub=${successRate === null ? t('dash.stat.noneFinished') : t('dash.stat.successRate', { rate: rate(successRate) })} />
      <${Stat} id="quota" icon="wallet" label=${t('dash.stat.quota', { range: rangeLabel })} value=${withMoney(netQuota)} sub=${t('dash.stat.netOfRefunds')} />
      <${Stat} id="refunds" icon="rotate-ccw" label=${t('dash.stat.refunds', { range: rangeLabel })} value=${withMoney(data.refunds.quota)} sub=${[t('dash.stat.refundCount', { n: num(data.refunds.count) }), data.late_completions ? t('dash.stat.lateCompletions', { n: num(data.late_completions) }) : null].filter(Boolean).join(' · ')} />
      <${Stat} id="stuck" icon="clock" tone=${stuck.count ? 'danger' : undefined} label=${t('dash.stat.stuck')} value=${num(stuck.count)}
        sub=${html`${stuck.count ? t('dash.stat.oldest', { age: duration(stuck.oldest_age_s) }) : t('dash.stat.noneStuck')} · <a href=${hrefFor('admin/tasks', { stuck: '1' })}>${t('dash.stat.view')}</a>`} />
      <${Stat} id="breakers" icon="shield" tone=${open ? 'danger' : undefined} label=${t('dash.stat.breakers')} value=${num(open)}
        sub=${html`${breakers.length - open ? t('dash.stat.halfOpen', { n: num(breakers.length - open) }) : open ? t('dash.stat.breakersOpen') : t('dash.stat.breakersClosed')} · <a href=${hrefFor('admin/channels')}>${t('dash.stat.view')}</a>`} />
      <${Stat} id="webhooks" icon="webhook" tone=${hooks.failing_endpoints ? 'danger' : undefined} label=${t('dash.stat.webhooks')} value=${num(hooks.failing_endpoints)}
        sub=${html`${t('dash.stat.failedDeliveries', { n: num(hooks.failed_deliveries) })} · <a href=${hrefFor('admin/webhooks')}>${t('dash.stat.view')}</a>`} />
      <${Stat} id="store" icon="film" label=${t('dash.stat.store')} value=${store.kind === 'none' ? t('dash.store.none') : bytes(store.bytes)}
        sub=${store.kind === 'none' ? t('dash.store.noneHint') : t('dash.stat.objects', { n: num(store.objects), kind: t(`dash.store.${store.kind}`) })} />
      <${Stat} id="housekeeping" icon="trash-2" label=${t('dash.stat.housekeeping')} value=${bytes(kept.bytes_deleted)}
        sub=${`${t('dash.stat.rowsRemoved', { n: num(kept.rows_deleted) })} · ${kept.task_retention_s ? t('dash.stat.retention', { age: duration(kept.task_retention_s) }) : t('dash.stat.keepAll')}`} />
    </div>

    <${Card} title=${t('dash.tasksChart', { per })} id="tasks-card">
      <${Chart} id="tasks-chart" categories=${categories} axisLabels=${axisLabels} series=${series} height=${260} format=${(v) => (Number.isInteger(v) ? num(v) : '')}
        label=${t('dash.tasksSummary', {
          during,
          total: num(total),
          per,
          parts: [...series]
            .reverse()
            .map((s) => `${s.label} ${num(sum(s.values))}`)
            .join(', '),
        })} />
    <//>

    <div class="grid-2">
      <${Card} title=${t('dash.quotaChart', { per })} id="quota-card">
        <${Chart} id="quota-chart" categories=${categories} axisLabels=${axisLabels} format=${quota} height=${220}
          label=${t('dash.quotaSummary', { during, net: quota(netQuota), refunded: quota(data.refunds.quota) })}
          series=${[
            { label: t('dash.series.netQuota'), color: '--chart-spend', kind: 'bar', values: data.quota_by_bucket },
            { label: t('dash.series.refunds'), color: '--chart-refund', kind: 'bar', values: data.refunds.by_bucket },
          ]} />
      <//>
      <${Card} title=${t('dash.quotaByModel')} id="model-quota-card">
        <${QuotaBars} models=${data.by_model} currency=${currency} />
      <//>
    </div>

    ${
      breakers.length
        ? html`<${Card} title=${t('dash.breakers')} id="breaker-card" class="flush list-card">
      <p class="card-intro muted">${t('dash.breakersIntro')}</p>
      <${DataTable} caption=${t('dash.breakers')} rows=${breakers} rowKey=${(b) => b.channel_id} rowProps=${(b) => ({ 'data-channel-id': b.channel_id })}
        columns=${[
          {
            key: 'channel',
            label: t('dash.col.channel'),
            card: 'title',
            render: (b) => html`<strong>${b.channel_name ?? `#${b.channel_id}`}</strong> <span class="muted">#${b.channel_id}</span>`,
          },
          { key: 'breaker', label: t('dash.col.breaker'), card: 'badge', render: (b) => html`<${BreakerCell} breaker=${b} />` },
        ]} />
    <//>`
        : null
    }
    <${Card} title=${t('dash.byChannel')} id="channel-card" class="flush list-card">
      <p class="card-intro muted">${t('dash.providerCostIntro')}</p>
      <${DataTable} caption=${t('dash.byChannel')} rows=${data.by_channel} rowKey=${(c) => c.channel_id ?? 'none'} rowProps=${(c) => ({ 'data-channel-id': c.channel_id })}
        empty=${t('dash.noTasks')} emptyIcon="server" columns=${outcomeColumns('channel', (c) => html`<strong>${c.channel_name ?? t('dash.noChannel')}</strong>${c.channel_id !== null && c.channel_id !== undefined ? html` <span class="muted">#${c.channel_id}</span>` : null}`, currency)} />
    <//>
    <${Card} title=${t('dash.byModel')} id="model-card" class="flush list-card">
      <${DataTable} caption=${t('dash.byModel')} rows=${data.by_model} rowKey=${(m) => m.model} rowProps=${(m) => ({ 'data-model': m.model })}
        empty=${t('dash.noTasks')} emptyIcon="clapperboard" columns=${outcomeColumns('model', (m) => html`<code class="model">${m.model}</code>`, currency)} />
    <//>
    ${
      data.margin
        ? // Full width, as the outcome tables above: half a page cannot show the margin column beside the others.
          html`<${Card} title=${t('dash.marginByChannel')} id="margin-channel-card" class="flush list-card">
        <p class="card-intro muted">${t('dash.marginIntro')}</p>
        <${MarginTable} kind="channel" rows=${data.margin.by_channel} />
      <//>
      <${Card} title=${t('dash.marginByModel')} id="margin-model-card" class="flush list-card">
        <p class="card-intro muted">${t('dash.marginIntro')}</p>
        <${MarginTable} kind="model" rows=${data.margin.by_model} />
      <//>`
        : null
    }
    <${Card} title=${t('dash.upstream')} id="upstream-card" class="flush list-card">
      <p class="card-intro muted">${t('dash.upstreamIntro')}</p>
      <${DataTable} caption=${t('dash.upstream')} rows=${data.upstream} rowKey=${(u) => u.channel_id} rowProps=${(u) => ({ 'data-channel-id': u.channel_id })}
        empty=${t('dash.noCalls')} emptyIcon="server" columns=${[
          {
            key: 'channel',
            label: t('dash.col.channel'),
            card: 'title',
            render: (u) => html`<strong>${u.channel_name ?? `#${u.channel_id}`}</strong>`,
          },
          {
            key: 'error_rate',
            label: t('dash.col.errorRate'),
            card: 'badge',
            render: (u) => html`<${RateMeter} value=${u.error_rate} bad />`,
          },
          { key: 'calls', label: t('dash.col.calls'), num: true, render: (u) => num(u.calls) },
          { key: 'errors', label: t('dash.col.errors'), num: true, render: (u) => num(u.errors) },
          { key: 'latency_avg', label: t('dash.col.latencyAvg'), num: true, render: (u) => ms(u.latency_avg_ms) },
          { key: 'latency_p95', label: t('dash.col.latencyP95'), num: true, render: (u) => ms(u.latency_p95_ms) },
        ]} />
    <//>`;
}

function outcomeColumns(kind, title, currency) {
  const columns = [
    { key: kind, label: t(`dash.col.${kind}`), card: 'title', render: title },
    { key: 'success_rate', label: t('dash.col.successRate'), card: 'badge', render: (r) => html`<${RateMeter} value=${r.success_rate} />` },
    { key: 'total', label: t('dash.col.total'), num: true, render: (r) => num(r.total) },
    { key: 'success', label: t('dash.col.success'), num: true, render: (r) => num(r.success) },
    {
      key: 'failure',
      label: t('dash.col.failure'),
      num: true,
      render: (r) => html`<span class=${r.failure ? 'error-text' : undefined}>${num(r.failure)}</span>`,
    },
    { key: 'cancelled', label: t('dash.col.cancelled'), num: true, render: (r) => num(r.cancelled) },
    { key: 'rejected', label: t('dash.col.rejected'), num: true, render: (r) => num(r.rejected) },
  ];
  if (kind === 'channel')
    columns.push(
      {
        key: 'net_charged',
        label: t('dash.col.paid'),
        num: true,
        render: (c) =>
          html`${quota(c.net_charged)}${moneyIn(c.net_charged, currency) ? html`<div class="muted small">${moneyIn(c.net_charged, currency)}</div>` : null}`,
      },
      {
        key: 'provider_cost',
        label: t('dash.col.providerCost'),
        num: true,
        render: (c) => html`<${ProviderCost} row=${c} />`,
      },
    );
  if (kind === 'model')
    columns.push({
      key: 'quota',
      label: t('dash.col.quota'),
      num: true,
      render: (m) =>
        html`${quota(m.quota)}${moneyIn(m.quota, currency) ? html`<div class="muted small">${moneyIn(m.quota, currency)}</div>` : null}`,
    });
  return columns;
}

/**
 * What the channel's provider reported of its own usage, per unit, with USD where the unit converts. The
 * margin is the margin tables' (the usage report's costs), not worked out here a second way.
 */
function ProviderCost({ row }) {
  const units = Object.entries(row.provider_usage ?? {});
  if (!units.length) return html`<span class="muted" data-provider-cost="none">—</span>`;
  const usd = row.provider_usd;
  return html`<span data-provider-cost=${units.map(([unit, value]) => `${unit}=${value}`).join(',')}>
    ${units.map(([unit, value], i) => html`${i ? html`<br />` : null}${t(`usage.unit.${unit}`, { n: num(value, { maximumFractionDigits: 2 }) })}`)}
    ${usd !== null && usd !== undefined ? html`<div class="muted small">≈ ${amount(usd, 'USD')}</div>` : null}
  </span>`;
}

/** The usage report's money for the top channels or models (by USD charged): charged, refunded, provider cost, margin. */
function MarginTable({ kind, rows }) {
  const money = (field, row) =>
    html`<span class=${field === 'margin_usd' && row.margin_usd < 0 ? 'amount-neg' : undefined}>${usd(row[field])}</span>`;
  return html`<${DataTable} caption=${t(kind === 'channel' ? 'dash.marginByChannel' : 'dash.marginByModel')} rows=${rows}
    rowKey=${(r) => String(r.key)} rowProps=${(r) => ({ 'data-margin-key': String(r.key) })} empty=${t('dash.noEnded')} emptyIcon="wallet"
    columns=${[
      {
        key: 'key',
        label: t(`dash.col.${kind}`),
        card: 'title',
        render: (r) =>
          kind === 'model'
            ? html`<code class="model">${usageKeyText(r, 'model')}</code>`
            : html`<strong>${usageKeyText(r, 'channel')}</strong>`,
      },
      { key: 'tasks', label: t('dash.col.ended'), num: true, render: (r) => num(r.tasks) },
      { key: 'usd_charged', label: t('ausage.col.usd_charged'), num: true, render: (r) => money('usd_charged', r) },
      { key: 'usd_refunded', label: t('ausage.col.usd_refunded'), num: true, render: (r) => money('usd_refunded', r) },
      {
        key: 'provider_cost_usd',
        label: t('ausage.col.provider_cost_usd'),
        num: true,
        render: (r) =>
          html`${money('provider_cost_usd', r)}${r.tasks_without_cost ? html`<div class="muted small">${t('ausage.withoutCost', { count: r.tasks_without_cost })}</div>` : null}`,
      },
      { key: 'margin_usd', label: t('ausage.col.margin_usd'), card: 'badge', num: true, render: (r) => money('margin_usd', r) },
    ]} />`;
}

/** A rate as a percentage with a short bar: green for a high success rate, red for a high error rate. */
function RateMeter({ value, bad = false }) {
  if (value === null || value === undefined) return html`<span class="muted">—</span>`;
  const tone = bad
    ? value >= 0.1
      ? 'danger'
      : value > 0
        ? 'warning'
        : 'success'
    : value >= 0.95
      ? 'success'
      : value >= 0.8
        ? 'warning'
        : 'danger';
  return html`<span class=${`rate-meter tone-${tone}`}><span class="rate-track" aria-hidden="true"><span class="rate-fill" style=${`width:${Math.max(2, value * 100)}%`}></span></span><span class="rate-value">${rate(value)}</span></span>`;
}

/** Quota consumed per model as labelled horizontal bars on one scale. */
function QuotaBars({ models, currency }) {
  const rows = models.filter((m) => m.quota).sort((a, b) => b.quota - a.quota);
  if (!rows.length) return html`<p class="muted">${t('dash.noQuota')}</p>`;
  const max = Math.max(...rows.map((m) => Math.abs(m.quota)), 1);
  return html`<ul class="hbars" aria-label=${t('dash.quotaByModel')}>
    ${rows.map(
      (m) => html`<li data-model=${m.model}>
      <div class="hbar-label"><span><code>${m.model}</code></span><span>${quota(m.quota)}${moneyIn(m.quota, currency) ? ` · ${moneyIn(m.quota, currency)}` : ''} · ${t('dash.taskCount', { n: num(m.total) })}</span></div>
      <div class="hbar-track" aria-hidden="true"><div class="hbar-fill" style=${`width:${Math.max(1, (Math.abs(m.quota) / max) * 100)}%`}></div></div>
    </li>`,
    )}
  </ul>`;
}

const ms = (value) => (value === null || value === undefined ? '—' : t('dash.ms', { n: num(Math.round(value)) }));

/** A bucket's start in full (the legend shows it for the hovered bucket): a time for minutes, a day and time for hours, a day for days. */
function bucketLabel(unix, bucketSeconds) {
  const date = new Date(unix * 1000);
  const time = new Intl.DateTimeFormat(langStore.get(), { hour: '2-digit', minute: '2-digit', hour12: false }).format(date);
  if (bucketSeconds < 3_600) return time;
  if (bucketSeconds < 86_400) return `${shortDate(date)} ${time}`;
  return shortDate(date);
}

/** The same, short enough for the axis: a bucket that starts a day shows the day, the others only their time. */
function axisLabel(unix, bucketSeconds) {
  const date = new Date(unix * 1000);
  if (bucketSeconds >= 86_400 || (bucketSeconds >= 3_600 && date.getHours() === 0 && date.getMinutes() === 0)) return shortDate(date);
  return new Intl.DateTimeFormat(langStore.get(), { hour: '2-digit', minute: '2-digit', hour12: false }).format(date);
}
