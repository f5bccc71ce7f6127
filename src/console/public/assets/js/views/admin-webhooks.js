// Admin: customers' webhook endpoints that are failing or disabled, the longest failing first.
// Customers see the same on their Webhooks page and enable them again there.
import { DataTable } from '../components/data-table.js';
import { Badge, Button, Card, ErrorNote, Loading, PageHeader, ShortId } from '../components/ui.js';
import { ago, compactDateTime, dateTime } from '../lib/format.js';
import { html } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';
import { hrefFor } from '../lib/url-state.js';

export function AdminWebhooks() {
  const failing = useApi('/api/admin/webhooks/failing', {}, { poll: () => 30_000 });
  const when = (unix) =>
    unix ? html`<span title=${dateTime(unix)}>${compactDateTime(unix)}</span>` : html`<span class="muted">${t('awebhooks.never')}</span>`;
  const columns = [
    {
      key: 'url',
      label: t('awebhooks.col.endpoint'),
      card: 'title',
      class: 'col-url',
      render: (e) => html`<code class="url">${e.url}</code><div class="muted small"><${ShortId} id=${String(e.id)} /></div>`,
    },
    {
      key: 'status',
      label: t('awebhooks.col.status'),
      card: 'badge',
      render: (e) =>
        html`<${Badge} status=${e.status === 'enabled' ? 'failed' : e.status}>${e.status === 'enabled' ? t('awebhooks.failing') : null}<//>`,
    },
    {
      key: 'user',
      label: t('awebhooks.col.user'),
      num: true,
      render: (e) =>
        html`<a href=${hrefFor('admin/tasks', { user_id: e.user_id })} title=${t('atasks.tasksOfUser', { id: e.user_id })}>#${e.user_id}</a>`,
    },
    {
      key: 'since',
      label: t('awebhooks.col.since'),
      class: 'nowrap',
      render: (e) => html`${when(e.failing_since)}${e.failing_since ? html`<div class="muted small">${ago(e.failing_since)}</div>` : null}`,
    },
    {
      key: 'error',
      label: t('awebhooks.col.lastError'),
      wide: true,
      render: (e) =>
        html`${e.last_status_code === null || e.last_status_code === undefined ? null : html`<span class="http-code bad">HTTP ${e.last_status_code}</span> `}${e.last_error && e.last_error !== `HTTP ${e.last_status_code}` ? html`<span class="fail-reason">${e.last_error}</span>` : null}`,
    },
    { key: 'attempt', label: t('awebhooks.col.lastAttempt'), class: 'nowrap', render: (e) => when(e.last_attempt_at) },
    { key: 'success', label: t('awebhooks.col.lastSuccess'), class: 'nowrap', render: (e) => when(e.last_success_at) },
  ];
  return html`<div class="admin-webhooks">
    <${PageHeader} title=${t('awebhooks.title')} intro=${t('awebhooks.intro')} actions=${html`<${Button} kind="secondary" small icon="refresh-cw" onClick=${failing.reload}>${t('common.refresh')}<//>`} />
    <${ErrorNote} error=${failing.error} onRetry=${failing.reload} />
    ${
      failing.data
        ? html`<${Card} class="flush list-card">
      <${DataTable} caption=${t('awebhooks.caption')} columns=${columns} rows=${failing.data.data} rowKey=${(e) => e.id} rowProps=${(e) => ({ 'data-endpoint-id': e.id })} empty=${t('awebhooks.none')} emptyIcon="circle-check" />
    <//>`
        : failing.loading
          ? html`<${Loading} />`
          : null
    }
  </div>`;
}
