// The ledger page shared by the customer's Logs and the admin's All logs: filters, totals, a paged table.
import { api } from './api.js';
import { append, h, render as fill } from './dom.js';
import { dayToUnix } from './format.js';
import { ADMIN_LOG_TYPE_OPTIONS, CUSTOMER_LOG_TYPE_OPTIONS, logTable, totalsBar } from './log-table.js';
import { pagedList } from './paged-list.js';
import { field, onSubmit, pageHeader } from './ui.js';

const PAGE_SIZE = 25;

/** `admin`: every account's ledger (a user filter, holds and releases); otherwise the signed-in customer's. */
export function renderLedgerPage(main, { endpoint, title, intro, admin = false }) {
  const totals = h('div', { 'aria-live': 'polite' });
  const list = h('div');
  const logs = pagedList({
    pageSize: PAGE_SIZE,
    fetchPage: (query) => api(endpoint, { query }),
    show: (result) => {
      fill(totals, result.totals ? totalsBar(result.totals) : null);
      fill(list, logTable(result.data, { showUser: admin }));
    },
  });
  const form = onSubmit(
    h(
      'form',
      { class: 'card grid-form', id: 'log-filters', 'aria-label': 'Filter logs' },
      admin ? field('User ID', { name: 'user_id', type: 'number', min: 1, step: 1 }) : null,
      field('Type', { tag: 'select', name: 'type', options: admin ? ADMIN_LOG_TYPE_OPTIONS : CUSTOMER_LOG_TYPE_OPTIONS }),
      field('From', { type: 'date', name: 'from' }),
      field('To', { type: 'date', name: 'to' }),
      field('Task ID', { name: 'task_id', placeholder: 'task_…' }),
      h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Apply filters'), h('button', { type: 'reset', class: 'secondary' }, 'Clear')),
    ),
    (values) =>
      logs.filter({ ...(admin ? { user_id: values.user_id } : {}), type: values.type, task_id: values.task_id, from: dayToUnix(values.from), to: dayToUnix(values.to, true) }),
  );
  form.addEventListener('reset', () => setTimeout(() => form.requestSubmit()));
  append(main, [pageHeader(title, intro), form, totals, list, logs.pagerBox]);
  logs.load();
}
