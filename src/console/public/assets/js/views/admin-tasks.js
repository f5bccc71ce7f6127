// Admin: every task — search by id or prompt, filters and sorting in the URL, stuck tasks flagged
// (and a stuck-only view), thumbnails, live progress, and the task drawer with channel and upstream id.
import { DataTable } from '../components/data-table.js';
import { Icon } from '../components/icon.js';
import { isActive, progressColumn, TaskStatus, Thumb } from '../components/task-bits.js';
import { Badge, Button, Card, ErrorNote, Field, Loading, PageHeader, Pager, SearchField, ShortId } from '../components/ui.js';
import { amount, bytes } from '../lib/admin-format.js';
import { compactDateTime, dateTime, dateTimeSeconds, money, num, quota } from '../lib/format.js';
import { html } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';
import { useUrlState } from '../lib/url-state.js';
import { TaskDrawer } from './task-drawer.js';

const PAGE_SIZE = 25;
const DEFAULTS = { q: '', status: '', model: '', user_id: '', stuck: '', sort: '-created_at', page: '1', task: '' };
const STATUSES = ['queued', 'in_progress', 'completed', 'failed', 'SUBMITTING', 'REJECTED'];
const SORTS = ['-created_at', 'created_at', 'status', 'model', '-cost', 'cost'];

/** The admin API speaks the gateway's statuses (SUCCESS, REJECTED…); the shared task pieces speak the flat ones. */
const upper = (status) => typeof status === 'string' && status === status.toUpperCase();
const flat = (task) => ({
  ...task,
  status: task.flat_status ?? task.status,
  gateway_status: upper(task.status) ? task.status : task.gateway_status,
});
const thumbSrc = (task) => `/api/admin/tasks/${encodeURIComponent(task.task_id)}/thumbnail`;

export function AdminTasks() {
  const [query, setQuery] = useUrlState(DEFAULTS);
  const page = Math.max(1, Number(query.page) || 1);
  const stuckOnly = query.stuck === '1';
  const asked = stuckOnly
    ? {}
    : {
        q: query.q,
        status: query.status,
        model: query.model,
        user_id: query.user_id,
        sort: query.sort === DEFAULTS.sort ? undefined : query.sort,
        page,
        page_size: PAGE_SIZE,
      };
  const list = useApi(stuckOnly ? '/api/admin/tasks/stuck' : '/api/admin/tasks', asked, {
    poll: (data) => (data?.data?.some((task) => isActive(flat(task).status)) ? 2000 : 10_000),
  });
  const channels = useApi('/api/admin/channels');
  const store = useApi('/api/admin/video-store');
  const rows = (list.data?.data ?? []).map(flat);
  const models = [...new Set((channels.data?.data ?? []).flatMap((c) => c.models))].sort();
  const channelName = (id) => channels.data?.data.find((c) => c.id === id)?.name;
  const open = (task) => setQuery({ task: task.task_id, page: query.page }, { replace: false });
  const filtered = query.q || query.status || query.model || query.user_id;

  const columns = [
    {
      key: 'video',
      label: t('tasks.col.video'),
      card: 'media',
      class: 'col-thumb',
      render: (task) => html`<${Thumb} task=${task} src=${thumbSrc(task)} />`,
    },
    {
      key: 'task',
      label: t('tasks.col.task'),
      card: 'title',
      class: 'col-task',
      render: (task) =>
        html`<div class="task-cell"><span class="id-line"><${ShortId} id=${task.task_id} />${task.stuck ? html`<${Badge} tone="danger" icon="clock">${t('atasks.stuck')}<//>` : null}</span>${task.prompt ? html`<div class="prompt-excerpt" title=${task.prompt}>${task.prompt}</div>` : null}</div>`,
    },
    {
      key: 'status',
      label: t('tasks.col.status'),
      sort: 'status',
      card: 'badge',
      class: 'col-status',
      render: (task) =>
        html`<${TaskStatus} task=${task} />${task.gateway_status === 'REJECTED' || task.gateway_status === 'SUBMITTING' ? html`<div class="muted small">${t(`atasks.status.${task.gateway_status}`)}</div>` : null}${task.deleted ? html`<div class="muted small">${t('atasks.deleted')}</div>` : null}`,
    },
    progressColumn(),
    {
      key: 'user',
      label: t('atasks.col.user'),
      num: true,
      render: (task) =>
        html`<a href=${`#/admin/tasks?user_id=${task.user_id}`} title=${t('atasks.tasksOfUser', { id: task.user_id })}>#${task.user_id}</a>`,
    },
    {
      key: 'model',
      label: t('atasks.col.modelChannel'),
      sort: 'model',
      render: (task) =>
        html`<code class="model">${task.model}</code><div class="muted small" data-channel-id=${task.channel_id ?? undefined}>${task.channel_id === null ? t('atasks.notRouted') : (channelName(task.channel_id) ?? `#${task.channel_id}`)}</div>`,
    },
    {
      key: 'cost',
      label: t('tasks.col.cost'),
      sort: 'cost',
      num: true,
      render: (task) =>
        html`<span>${quota(task.quota)}</span>${money(task.quota) ? html`<div class="muted small">${money(task.quota)}</div>` : null}`,
    },
    {
      key: 'created',
      label: t('tasks.col.created'),
      sort: 'created_at',
      class: 'nowrap',
      render: (task) =>
        html`<span title=${dateTime(task.created_at)}>${compactDateTime(task.created_at)}</span>${task.stuck && task.next_poll_at ? html`<div class="small error-text">${t('atasks.pollDue', { at: compactDateTime(task.next_poll_at) })}</div>` : null}`,
    },
    {
      key: 'actions',
      label: t('tasks.col.actions'),
      card: 'actions',
      class: 'col-actions',
      render: (task) => html`<div class="actions nowrap">
        ${task.has_video ? html`<${Button} small icon="play" onClick=${() => open(task)} aria-label=${t('tasks.playOf', { id: task.task_id })}>${t('tasks.play')}<//>` : html`<${Button} small kind="secondary" icon="eye" onClick=${() => open(task)} aria-label=${t('tasks.detailsOf', { id: task.task_id })}>${t('tasks.details')}<//>`}
      </div>`,
    },
  ];

  return html`<div class="tasks-page admin-tasks">
    <${PageHeader} title=${t('atasks.title')} intro=${t('atasks.intro')} actions=${html`<${Button} kind="secondary" small icon="refresh-cw" onClick=${list.reload}>${t('common.refresh')}<//>`} />
    ${store.data ? html`<p class="store-line muted" id="video-store-summary"><${Icon} name="film" size=${16} />${t('atasks.store', { kind: store.data.kind, objects: num(store.data.stored_objects), bytes: bytes(store.data.stored_bytes), pending: num(store.data.pending), failed: num(store.data.failed) })}</p>` : null}
    <${Card} class="filters">
      <form class="toolbar" id="task-filters" aria-label=${t('tasks.filters')} onSubmit=${(e) => e.preventDefault()}>
        <${SearchField} label=${t('tasks.search')} placeholder=${t('tasks.searchPlaceholder')} value=${query.q} onSearch=${(q) => setQuery({ q })} />
        <${Field} as="select" label=${t('tasks.col.status')} name="status" value=${query.status} disabled=${stuckOnly} onChange=${(e) => setQuery({ status: e.target.value })}
          options=${[['', t('tasks.allStatuses')], ...STATUSES.map((s) => [s, s === s.toUpperCase() ? t(`atasks.status.${s}`) : t(`status.${s}`)])]} />
        <${Field} as="select" label=${t('tasks.col.model')} name="model" value=${query.model} disabled=${stuckOnly} onChange=${(e) => setQuery({ model: e.target.value })}
          options=${[['', t('tasks.allModels')], ...[...new Set([...models, ...(query.model ? [query.model] : [])])].map((m) => [m, m])]} />
        <${UserFilter} value=${query.user_id} disabled=${stuckOnly} onChange=${(user_id) => setQuery({ user_id })} />
        <${Field} as="select" label=${t('tasks.sort')} name="sort" value=${query.sort} disabled=${stuckOnly} onChange=${(e) => setQuery({ sort: e.target.value })}
          options=${SORTS.map((s) => [s, t(`tasks.sort.${s}`)])} />
        <label class="check-field"><input type="checkbox" name="stuck" checked=${stuckOnly} onChange=${(e) => setQuery({ stuck: e.target.checked ? '1' : '' })} />${t('atasks.stuckOnly')}</label>
      </form>
      <p class="hint muted small"><${Icon} name="info" size=${14} /> ${t('atasks.stuckHint')}</p>
    <//>
    <${ErrorNote} error=${list.error} onRetry=${list.reload} />
    ${
      list.data
        ? html`<${Card} class="flush list-card">
      <${DataTable} caption=${stuckOnly ? t('atasks.stuckTitle') : t('atasks.title')} columns=${columns} rows=${rows} rowKey=${(task) => task.task_id}
        rowProps=${(task) => ({ 'data-task-id': task.task_id, 'data-status': task.status, class: task.stuck ? 'stuck' : undefined })}
        sort=${stuckOnly ? undefined : query.sort} onSort=${stuckOnly ? undefined : (sort) => setQuery({ sort })}
        empty=${stuckOnly ? t('atasks.noneStuck') : filtered ? t('tasks.noMatch') : t('atasks.none')} emptyIcon=${stuckOnly ? 'circle-check' : 'clapperboard'} />
    <//>
    ${stuckOnly ? null : html`<${Pager} page=${page} pageSize=${PAGE_SIZE} total=${list.data.total} onPage=${(next) => setQuery({ page: String(next) })} />`}`
        : list.loading
          ? html`<${Loading} />`
          : null
    }
    ${
      query.task
        ? html`<${TaskDrawer} key=${query.task} taskId=${query.task} base="/api/admin/tasks" normalize=${flat}
        row=${rows.find((r) => r.task_id === query.task)} extraFacts=${adminFacts} onClose=${() => setQuery({ task: '', page: query.page })} />`
        : null
    }
  </div>`;
}

/** A user id typed in; applied on Enter or when the field is left (not on every key). */
function UserFilter({ value, disabled, onChange }) {
  const apply = (e) => {
    const next = e.target.value.trim();
    if (next !== value) onChange(next);
  };
  return html`<${Field} label=${t('atasks.userId')} name="user_id" type="number" min="1" step="1" inputmode="numeric" value=${value} disabled=${disabled} class="narrow-field"
    onChange=${apply} onKeyDown=${(e) => e.key === 'Enter' && apply(e)} />`;
}

/** What only an admin sees in the drawer: who owns the task, which channel ran it, the provider's id and its reported cost, an end it reported after the deadline, the copy. */
function adminFacts(task) {
  const fact = (label, value, wide) => html`<div class=${wide ? 'wide' : undefined}><dt>${label}</dt><dd>${value}</dd></div>`;
  return html`
    ${fact(t('atasks.col.user'), task.user_id ? html`${task.username ?? '—'} <span class="muted">#${task.user_id}</span>` : '—')}
    ${fact(t('atasks.col.channel'), task.channel_id !== null && task.channel_id !== undefined ? html`<span data-fact="channel">${task.channel_name ?? '—'} <span class="muted">#${task.channel_id}</span></span>` : '—')}
    ${fact(t('atasks.gatewayStatus'), html`<code>${task.gateway_status ?? '—'}</code>`)}
    ${task.upstream_model ? fact(t('atasks.upstreamModel'), html`<code>${task.upstream_model}</code>`) : null}
    ${task.source_task_id ? fact(t('atasks.sourceTask'), html`<span data-fact="source-task"><${ShortId} id=${task.source_task_id} head=${12} tail=${6} /></span>`, true) : null}
    ${fact(t('atasks.upstreamId'), task.upstream_task_id ? html`<span data-fact="upstream-id"><${ShortId} id=${task.upstream_task_id} head=${12} tail=${6} /></span>` : '—', true)}
    ${task.archive_status ? fact(t('atasks.archive'), html`${t(`atasks.archive.${task.archive_status}`)}${task.archive_error ? html`<div class="fail-reason">${task.archive_error}</div>` : null}`) : null}
    ${task.video_expires_at ? fact(t('atasks.videoExpires'), dateTimeSeconds(task.video_expires_at)) : null}
    ${task.late_completion ? fact(t('atasks.lateCompletion'), html`<span data-fact="late-completion">${t(task.late_completion.state === 'succeeded' ? 'atasks.late.succeeded' : 'atasks.late.failed', { at: dateTimeSeconds(task.late_completion.at) })}${task.late_completion.provider_usage ? html` <span class="muted">${t(`usage.unit.${task.late_completion.provider_usage.unit}`, { n: num(task.late_completion.provider_usage.amount, { maximumFractionDigits: 2 }) })}</span>` : null}${task.late_completion.provider_cost_usd != null ? html` <span class="muted" data-fact="late-cost">${t('atasks.late.cost', { usd: amount(task.late_completion.provider_cost_usd, 'USD') })}</span>` : null}</span>`, true) : null}
    ${task.provider_usage ? fact(t('atasks.providerUsage'), html`<span data-fact="provider-usage">${t(`usage.unit.${task.provider_usage.unit}`, { n: num(task.provider_usage.amount, { maximumFractionDigits: 2 }) })}${task.provider_usage.usd_estimate !== null ? html` <span class="muted">≈ ${amount(task.provider_usage.usd_estimate, 'USD')}</span>` : null}</span>`) : null}
  `;
}
