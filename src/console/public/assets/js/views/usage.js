// Customer: what the account's ended tasks delivered and cost, per UTC day, model or API key (GET /v1/usage
// for the signed-in customer), over a range in the URL, with the same as a CSV download for invoicing.
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

const PATH = '/console/api/usage/report';
const GROUPS = ['day', 'model', 'key'];

export function Usage() {
  const [query, setQuery] = useUrlState(USAGE_DEFAULTS);
  const report = useApi(PATH, usageQuery(query));
  const groupBy = report.data?.group_by ?? query.group_by;
  const columns = [
    { key: 'key', label: t(`usage.by.${groupBy}`), card: 'title', render: (row) => usageKeyText(row, groupBy) },
    { key: 'tasks', label: t('usage.col.tasks'), num: true, render: (row) => quota(row.tasks) },
    { key: 'seconds', label: t('usage.col.seconds'), num: true, render: (row) => duration(row.seconds) },
    { key: 'quota', label: t('usage.col.quota'), num: true, render: (row) => quota(row.quota) },
    { key: 'usd', label: t('usage.col.usd'), num: true, render: (row) => usd(row.usd) },
  ];
  const rows = report.data?.data ?? [];
  const totals = usageTotals(rows, ['tasks', 'seconds', 'quota', 'usd']);
  return html`<div class="usage-page">
    <${PageHeader} title=${t('usage.title')} intro=${t('usage.intro')} actions=${html`<${UsageCsvLink} href=${usageCsvHref(PATH, query)} />`} />
    <${UsageFilters} query=${query} setQuery=${setQuery} groups=${GROUPS} />
    <${ErrorNote} error=${report.error} onRetry=${report.reload} />
    ${
      report.data
        ? html`<${Card} class="flush list-card">
      <${DataTable} caption=${t('usage.title')} columns=${columns} rows=${rows} rowKey=${(row) => String(row.key)} rowProps=${(row) => ({ 'data-usage-key': String(row.key) })} empty=${t('usage.empty')} emptyIcon="chart-column" />
    <//>
    ${rows.length ? html`<p class="muted small" id="usage-totals">${t('usage.totals', { tasks: quota(totals.tasks), quota: quota(totals.quota), usd: usd(totals.usd) })}</p>` : null}`
        : report.loading
          ? html`<${Loading} />`
          : null
    }
  </div>`;
}
