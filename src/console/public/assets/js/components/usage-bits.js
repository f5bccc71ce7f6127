// The usage reports' shared parts (the customer's Usage page, the admin's): the range and grouping form
// (all in the URL), the CSV link, and how a row's key reads.
import { Icon } from './icon.js';
import { Button, Card, Field } from './ui.js';
import { num } from '../lib/format.js';
import { html, useEffect, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';

export const USAGE_DEFAULTS = { from: '', to: '', group_by: 'day' };

/** The API's query for the page's URL state: dates as the API reads them (UTC days, `to` included); empty: the last 30 days. */
export const usageQuery = (query) => ({ from: query.from, to: query.to, group_by: query.group_by });

/** The same report as a CSV download: the API path with `format=csv` (the session cookie signs it in). */
export function usageCsvHref(path, query) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(usageQuery(query))) if (value) params.set(key, value);
  params.set('format', 'csv');
  return `${path}?${params}`;
}

/** A row's key as the grouping names it: a day, a model, a platform, or an id with its name. */
export function usageKeyText(row, groupBy) {
  if (row.key === null) return t('usage.none');
  if (groupBy === 'day' || groupBy === 'model' || groupBy === 'platform') return String(row.key);
  return row.name ? `${row.name} (#${row.key})` : `#${row.key}`;
}

/** US dollars (what the reports answer), with the cents a small amount needs. */
export const usd = (value) =>
  num(value, { style: 'currency', currency: 'USD', maximumFractionDigits: Math.abs(value) < 1 && value !== 0 ? 4 : 2 });

/** The sums of a report's rows (the totals line). */
export function usageTotals(rows, fields) {
  const totals = Object.fromEntries(fields.map((field) => [field, 0]));
  for (const row of rows) for (const field of fields) totals[field] += row[field];
  // Money sums in whole micro-dollars, as the API rounds them, then back to dollars.
  for (const field of fields) if (/usd/.test(field)) totals[field] = Math.round(totals[field] * 1e6) / 1e6;
  return totals;
}

/** The form: from, to, group by (a draft until Apply writes the URL). */
export function UsageFilters({ query, setQuery, groups }) {
  const [draft, setDraft] = useState(query);
  const queryKey = JSON.stringify(query);
  useEffect(() => setDraft(query), [queryKey]);
  const edit = (name) => (event) => setDraft((d) => ({ ...d, [name]: event.target.value }));
  const apply = (event) => {
    event.preventDefault();
    setQuery({ from: draft.from, to: draft.to, group_by: draft.group_by });
  };
  return html`<${Card}>
    <form id="usage-filters" class="grid-form" aria-label=${t('usage.filters')} onSubmit=${apply}>
      <${Field} label=${t('usage.from')} name="from" type="date" value=${draft.from} onInput=${edit('from')} help=${t('usage.utc')} />
      <${Field} label=${t('usage.to')} name="to" type="date" value=${draft.to} onInput=${edit('to')} />
      <${Field} as="select" label=${t('usage.groupBy')} name="group_by" value=${draft.group_by} onChange=${edit('group_by')} options=${groups.map((g) => [g, t(`usage.by.${g}`)])} />
      <div class="actions">
        <${Button} type="submit" icon="filter">${t('usage.apply')}<//>
        <${Button} kind="secondary" onClick=${() => setQuery({ from: '', to: '', group_by: 'day' })}>${t('usage.clear')}<//>
      </div>
    </form>
  <//>`;
}

/** The CSV download of what is shown (the page header's action). */
export const UsageCsvLink = ({ href }) =>
  html`<a class="button secondary" id="usage-csv" href=${href} download><${Icon} name="download" size=${16} />${t('usage.csv')}</a>`;
