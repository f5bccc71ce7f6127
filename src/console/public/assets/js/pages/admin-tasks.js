// Admin: every task, filterable, with stuck tasks highlighted (and a stuck-only view).
import { api } from '../api.js';
import { append, h, render as fill } from '../dom.js';
import { dateTime, quota } from '../format.js';
import { pagedList } from '../paged-list.js';
import { thumbnail } from '../thumbnail.js';
import { badge, field, onSubmit, pageHeader, progressBar, table } from '../ui.js';

const PAGE_SIZE = 25;
const STATUSES = [['', 'All statuses'], ['queued', 'Queued'], ['in_progress', 'In progress'], ['completed', 'Completed'], ['failed', 'Failed'], ['SUBMITTING', 'Submitting'], ['REJECTED', 'Rejected']];

export function render(main) {
  // The stuck-only view is one short list: no filters, no pages.
  let stuckOnly = false;
  const list = h('div');
  const tasks = pagedList({
    pageSize: PAGE_SIZE,
    fetchPage: (query) => (stuckOnly ? api('/api/admin/tasks/stuck') : api('/api/admin/tasks', { query })),
    show: (result) => fill(list, taskTable(result.data, stuckOnly)),
    paged: () => !stuckOnly,
  });
  const form = onSubmit(
    h(
      'form',
      { class: 'card grid-form', id: 'task-filters', 'aria-label': 'Filter tasks' },
      field('User ID', { name: 'user_id', type: 'number', min: 1, step: 1 }),
      field('Status', { tag: 'select', name: 'status', options: STATUSES }),
      field('Model', { name: 'model', placeholder: 'alpha/v6' }),
      h('div', { class: 'field' }, h('label', {}, h('input', { type: 'checkbox', name: 'stuck' }), ' Stuck tasks only')),
      h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Apply'), h('button', { type: 'button', class: 'secondary', onClick: () => tasks.load() }, 'Refresh')),
    ),
    (values) => {
      stuckOnly = values.stuck === true;
      return tasks.filter({ user_id: values.user_id, status: values.status, model: values.model });
    },
  );
  const store = h('p', { class: 'card', id: 'video-store-summary', 'aria-live': 'polite' }, 'Video store: …');
  append(main, [pageHeader('All tasks', 'A task is stuck when its next poll has been due for over a minute, or its submit never finished.'), store, form, list, tasks.pagerBox]);
  api('/api/admin/video-store')
    .then((s) => fill(store, `Video store (${s.kind}): ${quota(s.stored_objects)} objects, ${megabytes(s.stored_bytes)} MB stored; ${quota(s.pending)} archives pending, ${quota(s.failed)} failed.`))
    .catch(() => fill(store, 'Video store: unavailable.'));
  tasks.load();
}

function taskTable(rows, stuckOnly) {
  return table(
    stuckOnly ? 'Stuck tasks' : 'Tasks',
    [
      { label: 'Task', cell: (t) => [h('code', {}, t.task_id), t.stuck ? [' ', badge('Stuck', 'stuck')] : null] },
      { label: 'User', cell: (t) => String(t.user_id), num: true },
      { label: 'Model', cell: (t) => t.model },
      { label: 'Channel', cell: (t) => (t.channel_id === null ? '—' : String(t.channel_id)), class: 'hide-narrow' },
      { label: 'Status', cell: (t) => [badge(t.status, t.flat_status), t.fail_reason ? h('div', { class: 'error-text' }, t.fail_reason) : null] },
      { label: 'Progress', cell: (t) => progressBar(t.progress, `Progress of task ${t.task_id}`) },
      { label: 'Video', cell: (t) => (t.has_thumbnail ? thumbnail(`/api/admin/tasks/${encodeURIComponent(t.task_id)}/thumbnail`, `First frames of task ${t.task_id}`) : t.archive_status === 'failed' ? 'Not archived' : '—'), class: 'hide-narrow' },
      { label: 'Quota', cell: (t) => quota(t.quota), num: true },
      { label: 'Created', cell: (t) => dateTime(t.created_at), class: 'hide-narrow' },
      { label: 'Next poll', cell: (t) => dateTime(t.next_poll_at), class: 'hide-narrow' },
    ],
    rows,
    { empty: stuckOnly ? 'No stuck tasks.' : 'No tasks match.', rowAttrs: (t) => ({ class: t.stuck ? 'stuck' : null, 'data-task-id': t.task_id }) },
  );
}

const megabytes = (bytes) => (bytes / 1e6).toLocaleString(undefined, { maximumFractionDigits: 1 });
