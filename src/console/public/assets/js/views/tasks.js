// Customer tasks: search, filters and sorting in the URL, live progress, thumbnails, a detail drawer with the player.
import { DataTable } from '../components/data-table.js';
import { Icon } from '../components/icon.js';
import { isActive, progressColumn, TASK_STATUSES, TaskStatus, Thumb } from '../components/task-bits.js';
import { Button, Card, ErrorNote, Field, PageHeader, Pager, SearchField, ShortId } from '../components/ui.js';
import { compactDateTime, dateTime, money, quota } from '../lib/format.js';
import { html, useEffect, useMemo, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';
import { useUrlState } from '../lib/url-state.js';
import { TaskDrawer } from './task-drawer.js';

const PAGE_SIZE = 20;
const ACTIVE_POLL_MS = 1500;
const IDLE_POLL_MS = 5000;
const DEFAULTS = { q: '', status: '', model: '', sort: '-created_at', page: '1', task: '' };
const SORTS = {
  created_at: (a, b) => a.created_at - b.created_at,
  status: (a, b) => a.status.localeCompare(b.status),
  model: (a, b) => a.model.localeCompare(b.model),
  cost: (a, b) => a.quota - b.quota,
};

/** Search and sorting are the server's once it knows them (contract item 4); until then, this page's rows are searched and sorted here. */
let serverSearches = true;

export function Tasks() {
  const [query, setQuery] = useUrlState(DEFAULTS);
  const [, setFallback] = useState(0);
  const page = Math.max(1, Number(query.page) || 1);
  const asked = {
    status: query.status,
    model: query.model,
    page,
    page_size: PAGE_SIZE,
    ...(serverSearches ? { q: query.q, sort: query.sort === DEFAULTS.sort ? undefined : query.sort } : {}),
  };
  const list = useApi('/console/api/tasks', asked, {
    poll: (data) => (data?.data?.some((task) => isActive(task.status)) ? ACTIVE_POLL_MS : IDLE_POLL_MS),
  });
  const models = useApi('/console/api/models');

  useEffect(() => {
    if (serverSearches && list.error?.status === 400 && ['q', 'sort'].includes(list.error.param)) {
      serverSearches = false;
      setFallback((n) => n + 1);
    }
  }, [list.error]);

  const rows = useMemo(() => {
    let data = list.data?.data ?? [];
    if (!serverSearches) {
      const q = query.q.toLowerCase();
      if (q) data = data.filter((task) => task.task_id.toLowerCase().includes(q) || (task.prompt ?? '').toLowerCase().includes(q));
      const key = query.sort.replace(/^-/, '');
      if (SORTS[key]) data = [...data].sort((a, b) => (query.sort.startsWith('-') ? -1 : 1) * SORTS[key](a, b));
    }
    return data;
  }, [list.data, query.q, query.sort]);

  const modelOptions = [...new Set([...(models.data?.used ?? []), ...(models.data?.data ?? [])])].sort();
  const open = (task) => setQuery({ task: task.task_id, page: query.page }, { replace: false });
  const columns = [
    { key: 'video', label: t('tasks.col.video'), card: 'media', class: 'col-thumb', render: (task) => html`<${Thumb} task=${task} />` },
    {
      key: 'task',
      label: t('tasks.col.task'),
      card: 'title',
      class: 'col-task',
      render: (task) =>
        html`<div class="task-cell"><${ShortId} id=${task.task_id} />${task.prompt ? html`<div class="prompt-excerpt" title=${task.prompt}>${task.prompt}</div>` : null}</div>`,
    },
    {
      key: 'status',
      label: t('tasks.col.status'),
      sort: 'status',
      card: 'badge',
      class: 'col-status',
      render: (task) => html`<${TaskStatus} task=${task} />`,
    },
    progressColumn(),
    { key: 'model', label: t('tasks.col.model'), sort: 'model', render: (task) => html`<code class="model">${task.model}</code>` },
    { key: 'cost', label: t('tasks.col.cost'), sort: 'cost', num: true, render: (task) => html`<${Cost} task=${task} />` },
    {
      key: 'created',
      label: t('tasks.col.created'),
      sort: 'created_at',
      class: 'nowrap',
      render: (task) => html`<span title=${dateTime(task.created_at)}>${compactDateTime(task.created_at)}</span>`,
    },
    {
      key: 'actions',
      label: t('tasks.col.actions'),
      card: 'actions',
      class: 'col-actions',
      render: (task) => html`<div class="actions nowrap">
        ${task.has_video ? html`<${Button} small icon="play" onClick=${() => open(task)} aria-label=${t('tasks.playOf', { id: task.task_id })}>${t('tasks.play')}<//>` : null}
        <${Button} small kind="secondary" icon="eye" onClick=${() => open(task)} aria-label=${t('tasks.detailsOf', { id: task.task_id })}>${t('tasks.details')}<//>
      </div>`,
    },
  ];

  return html`<div class="tasks-page">
    <${PageHeader} title=${t('tasks.title')} intro=${t('tasks.intro')} />
    <${Card} class="filters">
      <form class="toolbar" id="task-filters" aria-label=${t('tasks.filters')} onSubmit=${(e) => e.preventDefault()}>
        <${SearchField} label=${t('tasks.search')} placeholder=${t('tasks.searchPlaceholder')} value=${query.q} onSearch=${(q) => setQuery({ q })} />
        <${Field} as="select" label=${t('tasks.col.status')} name="status" value=${query.status} onChange=${(e) => setQuery({ status: e.target.value })}
          options=${[['', t('tasks.allStatuses')], ...TASK_STATUSES.map((s) => [s, t(`status.${s}`)])]} />
        <${Field} as="select" label=${t('tasks.col.model')} name="model" value=${query.model} onChange=${(e) => setQuery({ model: e.target.value })}
          options=${[['', t('tasks.allModels')], ...modelOptions.map((m) => [m, m])]} />
        <${Field} as="select" label=${t('tasks.sort')} name="sort" value=${query.sort} onChange=${(e) => setQuery({ sort: e.target.value })}
          options=${['-created_at', 'created_at', 'status', 'model', '-cost', 'cost'].map((s) => [s, t(`tasks.sort.${s}`)])} />
      </form>
      ${serverSearches ? null : html`<p class="hint"><${Icon} name="info" size=${14} /> ${t('tasks.searchLocal')}</p>`}
    <//>
    <${ErrorNote} error=${list.error?.status === 400 && !serverSearches ? null : list.error} onRetry=${list.reload} />
    ${
      list.data
        ? html`<${Card} class="flush list-card">
      <${DataTable} caption=${t('tasks.title')} columns=${columns} rows=${rows} rowKey=${(task) => task.task_id}
        rowProps=${(task) => ({ 'data-task-id': task.task_id, 'data-status': task.status })}
        sort=${query.sort} onSort=${(sort) => setQuery({ sort })} empty=${query.q || query.status || query.model ? t('tasks.noMatch') : t('tasks.none')} emptyIcon="clapperboard" />
    <//>
    <${Pager} page=${page} pageSize=${PAGE_SIZE} total=${list.data.total} onPage=${(next) => setQuery({ page: String(next) })} />`
        : list.loading
          ? html`<p class="loading">${t('common.loading')}</p>`
          : null
    }
    ${query.task ? html`<${TaskDrawer} key=${query.task} taskId=${query.task} row=${rows.find((r) => r.task_id === query.task)} onClose=${() => setQuery({ task: '', page: query.page })} />` : null}
  </div>`;
}

function Cost({ task }) {
  const m = money(task.quota);
  const refunded = task.status === 'failed' && task.quota > 0;
  return html`<div class=${refunded ? 'cost refunded' : 'cost'}><span>${quota(task.quota)}</span>${m ? html`<div class="muted small">${m}</div>` : null}${refunded ? html`<div class="small refund-note">${t('tasks.refunded')}</div>` : null}</div>`;
}
