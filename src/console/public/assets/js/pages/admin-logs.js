// Admin: the whole ledger, filterable by user, type, task and date, with totals.
import { api } from '../api.js';
import { append, h, render as fill } from '../dom.js';
import { dayToUnix } from '../format.js';
import { logTable, LOG_TYPE_OPTIONS, totalsBar } from '../log-table.js';
import { fail, field, onSubmit, pageHeader, pager } from '../ui.js';

const PAGE_SIZE = 25;

export function render(main) {
  let filters = {};
  let page = 1;
  const totals = h('div', { 'aria-live': 'polite' });
  const list = h('div');
  const pagerBox = h('div');
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
    async (values) => {
      filters = { user_id: values.user_id, type: values.type, task_id: values.task_id, from: dayToUnix(values.from), to: dayToUnix(values.to, true) };
      page = 1;
      await load();
    },
  );
  append(main, [pageHeader('All logs', 'Top-ups, charges, refunds and adjustments of every account.'), form, totals, list, pagerBox]);

  async function load() {
    try {
      const result = await api('/api/admin/logs', { query: { ...filters, page, page_size: PAGE_SIZE } });
      fill(totals, result.totals ? totalsBar(result.totals) : null);
      fill(list, logTable(result.data, { showUser: true }));
      fill(pagerBox, pager(page, PAGE_SIZE, result.total, (next) => {
        page = next;
        load();
      }));
    } catch (error) {
      fail(error);
    }
  }
  load();
}
