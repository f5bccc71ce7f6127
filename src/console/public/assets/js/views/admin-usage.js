// Admin: every account's ended tasks per UTC day, model, channel, platform, user or API key: what was charged,
// refunded, what the providers cost and the margin (GET /api/admin/usage), with the same as a CSV download.
import { DataTable } from '../components/data-table.js';
import {
  USAGE_DEFAULTS,
  UsageCsvLink,
  UsageFilters,
  usageCsvHref,
  usageKeyText,
  usageQuery,
  usageTotals,
  usd,
} from '../components/usage-bits.js';
import { Card, ErrorNote, Loading, PageHeader } from '../components/ui.js';
import { duration, quota } from '../lib/format.js';
import { html } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';
import { useUrlState } from '../lib/url-state.js';

const PATH = '/api/admin/usage';
const GROUPS = ['day', 'model', 'channel', 'platform', 'user', 'key'];
const MONEY = ['usd_charged', 'usd_refunded', 'provider_cost_usd', 'margin_usd'];

export function AdminUsage() {
  const [query, setQuery] = useUrlState(USAGE_DEFAULTS);
  const report = useApi(PATH, usageQuery(query));
  const groupBy = report.data?.group_by ?? query.group_by;
  const columns = [
    { key: 'key', label: t(`usage.by.${groupBy}`), card: 'title', render: (row) => usageKeyText(row, groupBy) },
    { key: 'tasks', label: t('usage.col.tasks'), num: true, render: (row) => quota(row.tasks) },
    { key: 'seconds', label: t('usage.col.seconds'), num: true, render: (row) => duration(row.seconds) },
    { key: 'quota', label: t('usage.col.quota'), num: true, render: (row) => quota(row.quota) },
    ...MONEY.map((field) => ({
      key: field,
      label: t(`ausage.col.${field}`),
      num: true,
      render: (row) =>
        html`<span class=${field === 'margin_usd' && row.margin_usd < 0 ? 'amount-neg' : undefined}>${usd(row[field])}</span>${
          field === 'provider_cost_usd' && row.tasks_without_cost
            ? html`<div class="muted small">${t('ausage.withoutCost', { count: row.tasks_without_cost })}</div>`
            : null
        }`,
    })),
  ];
  const rows = report.data?.data ?? [];
  const totals = usageTotals(rows, ['tasks', ...MONEY]);
  return html`<div class="usage-page admin-usage">
    <${PageHeader} title=${t('ausage.title')} intro=${t('ausage.intro')} actions=${html`<${UsageCsvLink} href=${usageCsvHref(PATH, query)} />`} />
    <${UsageFilters} query=${query} setQuery=${setQuery} groups=${GROUPS} />
    <${ErrorNote} error=${report.error} onRetry=${report.reload} />
    ${
      report.data
        ? html`<${Card} class="flush list-card">
      <${DataTable} caption=${t('ausage.title')} columns=${columns} rows=${rows} rowKey=${(row) => String(row.key)} rowProps=${(row) => ({ 'data-usage-key': String(row.key) })} empty=${t('usage.empty')} emptyIcon="chart-column" />
    <//>
    ${
      rows.length
        ? html`<p class="muted small" id="usage-totals">${t('ausage.totals', {
            tasks: quota(totals.tasks),
            charged: usd(totals.usd_charged),
            refunded: usd(totals.usd_refunded),
            cost: usd(totals.provider_cost_usd),
            margin: usd(totals.margin_usd),
          })}</p>`
        : null
    }`
        : report.loading
          ? html`<${Loading} />`
          : null
    }
  </div>`;
}
