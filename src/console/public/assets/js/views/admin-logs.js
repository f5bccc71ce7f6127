// Admin: the whole ledger — every account's top-ups, charges, refunds, adjustments, and the holds of
// submits (with their releases) — filtered by user, type, dates and task (all in the URL), with totals.
import { DataTable } from '../components/data-table.js';
import { ledgerColumns, LogTotals } from '../components/log-bits.js';
import { Button, Card, ErrorNote, Field, Loading, PageHeader, Pager } from '../components/ui.js';
import { dayToUnix } from '../lib/format.js';
import { html } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';
import { hrefFor, useUrlState } from '../lib/url-state.js';

const PAGE_SIZE = 25;
const TYPES = ['consume', 'refund', 'topup', 'adjust', 'hold', 'release', 'refused'];
const DEFAULTS = { user_id: '', type: '', from: '', to: '', task_id: '', page: '1' };

export function AdminLogs() {
  const [query, setQuery] = useUrlState(DEFAULTS);
  const page = Math.max(1, Number(query.page) || 1);
  const logs = useApi('/api/admin/logs', {
    user_id: query.user_id,
    type: query.type,
    task_id: query.task_id,
    from: dayToUnix(query.from),
    to: dayToUnix(query.to, true),
    page,
    page_size: PAGE_SIZE,
  });
  const apply = (event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name) => String(form.get(name) ?? '').trim();
    setQuery({ user_id: text('user_id'), type: text('type'), from: text('from'), to: text('to'), task_id: text('task_id') });
  };
  // Every entry with a task names it; the user column links to that user's entries.
  const columns = ledgerColumns(() => true, {
    key: 'user',
    label: t('alogs.col.user'),
    num: true,
    render: (l) =>
      html`<a href=${hrefFor('admin/logs', { user_id: l.user_id })} title=${t('alogs.entriesOf', { id: l.user_id })}>#${l.user_id}</a>`,
  });
  const totals = logs.data?.totals;
  return html`<div class="logs-page admin-logs">
    <${PageHeader} title=${t('alogs.title')} intro=${t('alogs.intro')} />
    <${Card}>
      <form id="log-filters" class="grid-form" aria-label=${t('logs.filters')} onSubmit=${apply} key=${JSON.stringify(query)}>
        <${Field} label=${t('alogs.userId')} name="user_id" type="number" min="1" step="1" inputmode="numeric" value=${query.user_id} />
        <${Field} as="select" label=${t('logs.col.type')} name="type" value=${query.type} options=${[['', t('logs.allTypes')], ...TYPES.map((ty) => [ty, t(`status.${ty}`)])]} />
        <${Field} label=${t('logs.from')} name="from" type="date" value=${query.from} />
        <${Field} label=${t('logs.to')} name="to" type="date" value=${query.to} />
        <${Field} label=${t('logs.taskId')} name="task_id" value=${query.task_id} placeholder="task_…" />
        <div class="actions"><${Button} type="submit" icon="filter">${t('logs.apply')}<//><${Button} kind="secondary" onClick=${() => setQuery({ user_id: '', type: '', from: '', to: '', task_id: '' })}>${t('logs.clear')}<//></div>
      </form>
    <//>
    <${ErrorNote} error=${logs.error} onRetry=${logs.reload} />
    ${totals ? html`<${LogTotals} totals=${totals} />` : null}
    ${
      logs.data
        ? html`<${Card} class="flush list-card">
      <${DataTable} caption=${t('alogs.title')} columns=${columns} rows=${logs.data.data} rowKey=${(l) => l.id} rowProps=${(l) => ({ 'data-log-type': l.type, 'data-task-id': l.task_id ?? undefined, 'data-user-id': l.user_id })} empty=${t('logs.none')} emptyIcon="receipt" />
    <//>
    <${Pager} page=${page} pageSize=${PAGE_SIZE} total=${logs.data.total} onPage=${(next) => setQuery({ page: String(next) })} />`
        : logs.loading
          ? html`<${Loading} />`
          : null
    }
  </div>`;
}
