// Customer logs: consume, refund (with task and reason), top-up; filter by type and date; totals.
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
      field('Type', { tag: 'select', name: 'type', options: LOG_TYPE_OPTIONS }),
      field('From', { type: 'date', name: 'from' }),
      field('To', { type: 'date', name: 'to' }),
      field('Task ID', { name: 'task_id', placeholder: 'task_…' }),
      h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Apply filters'), h('button', { type: 'reset', class: 'secondary' }, 'Clear')),
    ),
    async (values) => {
      filters = { type: values.type, task_id: values.task_id, from: dayToUnix(values.from), to: dayToUnix(values.to, true) };
      page = 1;
      await load();
    },
  );
  form.addEventListener('reset', () => setTimeout(() => form.requestSubmit()));
  append(main, [pageHeader('Logs', 'Every change of your balance. A failed task is refunded automatically; its refund names the task and the reason.'), form, totals, list, pagerBox]);

  async function load() {
    try {
      const result = await api('/console/api/logs', { query: { ...filters, page, page_size: PAGE_SIZE } });
      fill(totals, totalsBar(result.totals));
      fill(list, logTable(result.data));
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
