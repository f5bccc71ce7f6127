// What the webhook endpoints' deliveries and the per-request callbacks' attempts show alike:
// the list (polled while an attempt is still due), its columns, and an attempt's result badge.
import { Badge, ShortId } from './ui.js';
import { compactDateTime, dateTime } from '../lib/format.js';
import { html } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';

/** The attempts at `path`, polled every 3 s while one of them still waits for a retry. */
export function useDeliveries(path) {
  return useApi(path, {}, { poll: (d) => (d?.data?.some((x) => !x.delivered_at && x.next_attempt_at) ? 3000 : 0) });
}

/** The columns every attempt list has: event, result, HTTP code, task, time. */
export function deliveryColumns() {
  return [
    {
      key: 'event',
      label: t('webhooks.col.event'),
      card: 'title',
      render: (d) => html`<div class="task-cell"><${ShortId} id=${d.event_id} /><span class="muted small">${d.type}</span></div>`,
    },
    {
      key: 'result',
      label: t('webhooks.col.result'),
      card: 'badge',
      render: (d) =>
        html`${resultOf(d)}<div class="muted small">${t('webhooks.attemptN', { n: d.attempt })}${d.next_attempt_at ? ` · ${t('webhooks.nextAt', { at: compactDateTime(d.next_attempt_at) })}` : ''}</div>`,
    },
    {
      key: 'code',
      label: t('webhooks.col.code'),
      num: true,
      render: (d) =>
        d.status_code === null || d.status_code === undefined
          ? '—'
          : html`<span class=${`http-code ${d.status_code >= 200 && d.status_code < 300 ? 'ok' : 'bad'}`}>${d.status_code}</span>`,
    },
    { key: 'task', label: t('webhooks.col.task'), render: (d) => (d.task_id ? html`<${ShortId} id=${d.task_id} />` : '—') },
    {
      key: 'at',
      label: t('webhooks.col.at'),
      class: 'nowrap',
      render: (d) => html`<span title=${dateTime(d.created_at)}>${compactDateTime(d.created_at)}</span>`,
    },
  ];
}

function resultOf(d) {
  if (d.delivered_at) return html`<${Badge} status="delivered" />`;
  if ((d.status_code === null || d.status_code === undefined) && !d.error) return html`<${Badge} status="pending" />`;
  return html`<${Badge} status="failed" />${d.error ? html`<div class="fail-reason">${d.error}</div>` : null}`;
}
