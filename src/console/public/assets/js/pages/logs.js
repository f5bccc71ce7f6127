// Customer logs: consume, refund (with task and reason), top-up; filter by type and date; totals.
import { api } from '../api.js';
import { append, h, render as fill } from '../dom.js';
import { dayToUnix } from '../format.js';
import { logTable, LOG_TYPE_OPTIONS, totalsBar } from '../log-table.js';
import { pagedList } from '../paged-list.js';
import { field, onSubmit, pageHeader } from '../ui.js';

const PAGE_SIZE = 25;

export function render(main) {
  const totals = h('div', { 'aria-live': 'polite' });
  const list = h('div');
  const logs = pagedList({
    pageSize: PAGE_SIZE,
    fetchPage: (query) => api('/console/api/logs', { query }),
    show: (result) => {
      fill(totals, totalsBar(result.totals));
      fill(list, logTable(result.data));
    },
  });
  const form = onSubmit(
    h(
      'form',
      { class: 'card grid-form', id: 'log-filters', 'aria-label': 'Filter logs' },
      field('Type', { tag: 'select', name: 'type', options: LOG_TYPE_OPTIONS }),
      field('From', { type: 'date', name: 'from' }),
      field('To', { type: 'date', name: 'to' }),
      field('Task ID', { name: 'task_id', placeholder: 'task_…' }),
      h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Apply filters'), h('button', { type: 'reset', class: 'secondary' }, 'Clear')),
    ),
    (values) => logs.filter({ type: values.type, task_id: values.task_id, from: dayToUnix(values.from), to: dayToUnix(values.to, true) }),
  );
  form.addEventListener('reset', () => setTimeout(() => form.requestSubmit()));
  append(main, [pageHeader('Logs', 'Every change of your balance. A failed task is refunded automatically; its refund names the task and the reason.'), form, totals, list, logs.pagerBox]);
  logs.load();
}
