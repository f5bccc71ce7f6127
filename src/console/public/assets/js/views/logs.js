// Customer ledger: every change of the balance, filtered by type, dates and task (all in the URL), with totals.
import { DataTable } from '../components/data-table.js';
import { ledgerColumns, LogTotals } from '../components/log-bits.js';
import { Button, Card, ErrorNote, Field, PageHeader, Pager } from '../components/ui.js';
import { dayToUnix } from '../lib/format.js';
import { html, useEffect, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';
import { useUrlState } from '../lib/url-state.js';

const PAGE_SIZE = 25;
const TYPES = ['consume', 'refund', 'topup', 'adjust', 'refused'];
const DEFAULTS = { type: '', from: '', to: '', task_id: '', page: '1' };

export function Logs() {
  const [query, setQuery] = useUrlState(DEFAULTS);
  const page = Math.max(1, Number(query.page) || 1);
  const logs = useApi('/console/api/logs', {
    type: query.type,
    task_id: query.task_id,
    from: dayToUnix(query.from),
    to: dayToUnix(query.to, true),
    page,
    page_size: PAGE_SIZE,
  });
  // The form edits a draft (a re-render when data arrives must not reset what is being typed); Apply writes the URL.
  const [draft, setDraft] = useState(query);
  const queryKey = JSON.stringify(query);
  useEffect(() => setDraft(query), [queryKey]);
  const edit = (name) => (event) => setDraft((d) => ({ ...d, [name]: event.target.value }));
  const apply = (event) => {
    event.preventDefault();
    setQuery({ type: draft.type, from: draft.from, to: draft.to, task_id: draft.task_id.trim() });
  };
  // A charge names its task.
  const columns = ledgerColumns((l) => l.type === 'consume');
  const totals = logs.data?.totals;
  return html`<div class="logs-page">
    <${PageHeader} title=${t('logs.title')} intro=${t('logs.intro')} />
    <${Card}>
      <form id="log-filters" class="grid-form" aria-label=${t('logs.filters')} onSubmit=${apply}>
        <${Field} as="select" label=${t('logs.col.type')} name="type" value=${draft.type} onChange=${edit('type')} options=${[['', t('logs.allTypes')], ...TYPES.map((ty) => [ty, t(`status.${ty}`)])]} />
        <${Field} label=${t('logs.from')} name="from" type="date" value=${draft.from} onInput=${edit('from')} />
        <${Field} label=${t('logs.to')} name="to" type="date" value=${draft.to} onInput=${edit('to')} />
        <${Field} label=${t('logs.taskId')} name="task_id" value=${draft.task_id} onInput=${edit('task_id')} placeholder="task_…" />
        <div class="actions"><${Button} type="submit" icon="filter">${t('logs.apply')}<//><${Button} kind="secondary" onClick=${() => setQuery({ type: '', from: '', to: '', task_id: '' })}>${t('logs.clear')}<//></div>
      </form>
    <//>
    <${ErrorNote} error=${logs.error} onRetry=${logs.reload} />
    ${totals ? html`<${LogTotals} totals=${totals} />` : null}
    ${
      logs.data
        ? html`<${Card} class="flush list-card">
      <${DataTable} caption=${t('logs.title')} columns=${columns} rows=${logs.data.data} rowKey=${(l) => l.id} rowProps=${(l) => ({ 'data-log-type': l.type, 'data-task-id': l.task_id ?? undefined })} empty=${t('logs.none')} emptyIcon="scroll-text" />
    <//>
    <${Pager} page=${page} pageSize=${PAGE_SIZE} total=${logs.data.total} onPage=${(next) => setQuery({ page: String(next) })} />`
        : null
    }
  </div>`;
}
