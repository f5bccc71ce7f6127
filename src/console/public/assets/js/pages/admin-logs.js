// Admin: the whole ledger, filterable by user, type, task and date, with totals.
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
    fetchPage: (query) => api('/api/admin/logs', { query }),
    show: (result) => {
      fill(totals, result.totals ? totalsBar(result.totals) : null);
      fill(list, logTable(result.data, { showUser: true }));
    },
  });
  const form = onSubmit(
    h(
      'form',
      { class: 'card grid-form', id: 'log-filters', 'aria-label': 'Filter logs' },
      field('User ID', { name: 'user_id', type: 'number', min: 1, step: 1 }),
      field('Type', { tag: 'select', name: 'type', options: LOG_TYPE_OPTIONS }),
      field('Task ID', { name: 'task_id' }),
      field('From', { type: 'date', name: 'from' }),
      field('To', { type: 'date', name: 'to' }),
      h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Apply filters')),
    ),
    (values) => logs.filter({ user_id: values.user_id, type: values.type, task_id: values.task_id, from: dayToUnix(values.from), to: dayToUnix(values.to, true) }),
  );
  append(main, [pageHeader('All logs', 'Top-ups, charges, refunds and adjustments of every account.'), form, totals, list, logs.pagerBox]);
  logs.load();
}
