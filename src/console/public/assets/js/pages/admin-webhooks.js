// Admin: customers' webhook endpoints that are failing or disabled, the longest failing first.
import { api } from '../api.js';
import { append, h, render as fill } from '../dom.js';
import { dateTime } from '../format.js';
import { badge, fail, pageHeader, table } from '../ui.js';

export function render(main) {
  const list = h('div');
  append(main, [
    pageHeader('Failing webhooks', 'Endpoints whose latest deliveries failed, and those disabled after 3 days of failures. Customers see the same on their Webhooks page and can enable them again.'),
    h('div', { class: 'actions' }, h('button', { type: 'button', class: 'secondary', onClick: () => load() }, 'Refresh')),
    list,
  ]);

  async function load() {
    try {
      const { data } = await api('/api/admin/webhooks/failing');
      fill(
        list,
        table(
          'Failing webhook endpoints',
          [
            { label: 'Endpoint', cell: (e) => [h('code', {}, e.url), h('div', { class: 'hint' }, e.id)] },
            { label: 'User', cell: (e) => String(e.user_id), num: true },
            { label: 'Status', cell: (e) => badge(e.status) },
            { label: 'Failing since', cell: (e) => dateTime(e.failing_since) },
            { label: 'Last error', cell: (e) => [e.last_status_code === null ? '' : `HTTP ${e.last_status_code} `, e.last_error ?? ''] },
            { label: 'Last attempt', cell: (e) => dateTime(e.last_attempt_at), class: 'hide-narrow' },
            { label: 'Last success', cell: (e) => (e.last_success_at ? dateTime(e.last_success_at) : 'never'), class: 'hide-narrow' },
          ],
          data,
          { empty: 'No failing endpoints.', rowAttrs: (e) => ({ 'data-endpoint-id': e.id }) },
        ),
      );
    } catch (error) {
      fail(error);
    }
  }

  load();
}
