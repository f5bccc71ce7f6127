// Customer webhooks: endpoints (the signing secret shown once, with copy), deliveries with status
// codes, resend, test, enable a disabled endpoint, delete; then the per-request callbacks (webhook-callbacks.js).
import { api } from '../api.js';
import { useConfirm } from '../components/confirm.js';
import { DataTable } from '../components/data-table.js';
import { deliveryColumns, useDeliveries } from '../components/delivery-bits.js';
import { useSubmit } from '../components/form.js';
import { SecretOnce } from '../components/secret-once.js';
import { Badge, Button, Card, ErrorNote, Field, PageHeader, fail, toast } from '../components/ui.js';
import { compactDateTime, dateTime } from '../lib/format.js';
import { html, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';
import { useUrlState } from '../lib/url-state.js';
import { CallbackSecret } from './webhook-callbacks.js';

const EVENTS = ['video.completed', 'video.failed'];

export function Webhooks() {
  const endpoints = useApi('/console/api/webhooks');
  const [query, setQuery] = useUrlState({ endpoint: '' });
  const [created, setCreated] = useState(null);
  const [confirmDialog, confirm] = useConfirm();
  const selected = endpoints.data?.data.find((e) => String(e.id) === query.endpoint) ?? null;
  const create = useSubmit(async (values, form) => {
    const endpoint = await api('/console/api/webhooks', {
      method: 'POST',
      body: { url: values.url, events: values.events?.length ? values.events : undefined },
    });
    form.reset();
    setCreated(endpoint);
    endpoints.reload();
  });
  const act = async (fn, message) => {
    try {
      await fn();
      if (message) toast(message);
      endpoints.reload();
    } catch (error) {
      fail(error);
    }
  };
  const sendTest = (e) =>
    act(async () => {
      const attempt = await api(`/console/api/webhooks/${e.id}/test`, { method: 'POST' });
      toast(
        attempt.delivered_at
          ? t('webhooks.testDelivered', { code: attempt.status_code })
          : t('webhooks.testFailed', { error: attempt.error ?? attempt.status_code }),
        attempt.delivered_at ? 'info' : 'error',
      );
      setQuery({ endpoint: String(e.id) });
    });
  const remove = async (e) => {
    if (!(await confirm(t('webhooks.deleteQuestion', { url: e.url }), t('webhooks.delete')))) return;
    act(async () => {
      await api(`/console/api/webhooks/${e.id}`, { method: 'DELETE' });
      if (query.endpoint === String(e.id)) setQuery({ endpoint: '' });
    }, t('webhooks.deleted'));
  };
  const columns = [
    { key: 'url', label: t('webhooks.col.url'), card: 'title', class: 'col-url', render: (e) => html`<code class="url">${e.url}</code>` },
    {
      key: 'status',
      label: t('webhooks.col.status'),
      card: 'badge',
      render: (e) =>
        html`<${Badge} status=${e.status} />${e.status === 'disabled' ? html`<div class="fail-reason">${t('webhooks.disabledAt', { at: dateTime(e.disabled_at) })}</div>` : e.failing_since ? html`<div class="fail-reason">${t('webhooks.failingSince', { at: dateTime(e.failing_since) })}</div>` : null}`,
    },
    {
      key: 'events',
      label: t('webhooks.col.events'),
      render: (e) => html`<span class="chips">${e.events.map((ev) => html`<code class="chip">${ev}</code>`)}</span>`,
    },
    { key: 'created', label: t('webhooks.col.created'), class: 'nowrap', render: (e) => compactDateTime(e.created_at) },
    {
      key: 'actions',
      label: t('webhooks.col.actions'),
      card: 'actions',
      render: (e) => html`<div class="actions nowrap">
        <${Button} small icon="list-video" aria-label=${t('webhooks.deliveriesOf', { url: e.url })} aria-pressed=${query.endpoint === String(e.id) ? 'true' : 'false'} onClick=${() => setQuery({ endpoint: String(e.id) })}>${t('webhooks.deliveries')}<//>
        <${Button} small kind="secondary" icon="send" aria-label=${t('webhooks.testOf', { url: e.url })} onClick=${() => sendTest(e)}>${t('webhooks.test')}<//>
        ${e.status === 'disabled' ? html`<${Button} small kind="secondary" icon="circle-check" aria-label=${t('webhooks.enableOf', { url: e.url })} onClick=${() => act(() => api(`/console/api/webhooks/${e.id}/enable`, { method: 'POST' }), t('webhooks.enabled', { url: e.url }))}>${t('webhooks.enable')}<//>` : null}
        <${Button} small kind="danger" icon="trash-2" aria-label=${t('webhooks.deleteOf', { url: e.url })} onClick=${() => remove(e)}>${t('webhooks.delete')}<//>
      </div>`,
    },
  ];
  return html`<div class="webhooks-page">
    <${PageHeader} title=${t('webhooks.title')} intro=${t('webhooks.intro')} />
    ${created ? html`<${SecretOnce} id="new-webhook-secret" title=${t('webhooks.created', { url: created.url })} what=${t('webhooks.secretLabel')} value=${created.secret} onDone=${() => setCreated(null)} />` : null}
    <${Card} title=${t('webhooks.add')}>
      <form id="create-webhook-form" class="stack" aria-label=${t('webhooks.add')} onSubmit=${create.onSubmit}>
        <${Field} label=${t('webhooks.url')} name="url" type="url" required maxlength="2048" placeholder="https://example.com/hooks/video" />
        <fieldset><legend>${t('webhooks.col.events')}</legend><div class="checks">${EVENTS.map((ev) => html`<label><input type="checkbox" name="events" value=${ev} data-multi="1" checked />${ev}</label>`)}</div></fieldset>
        <div><${Button} type="submit" icon="plus" disabled=${create.busy}>${t('webhooks.addButton')}<//></div>
      </form>
    <//>
    <${Card} title=${t('webhooks.yours')} class="flush list-card">
      <${ErrorNote} error=${endpoints.error} onRetry=${endpoints.reload} />
      ${endpoints.data ? html`<${DataTable} caption=${t('webhooks.yours')} columns=${columns} rows=${endpoints.data.data} rowKey=${(e) => e.id} rowProps=${(e) => ({ 'data-endpoint-id': e.id })} empty=${t('webhooks.none')} emptyIcon="webhook" />` : null}
    <//>
    ${selected ? html`<${Deliveries} key=${selected.id} endpoint=${selected} />` : null}
    <${CallbackSecret} />
    ${confirmDialog}
  </div>`;
}

function Deliveries({ endpoint }) {
  const deliveries = useDeliveries(`/console/api/webhooks/${endpoint.id}/deliveries`);
  const resend = async (d) => {
    try {
      await api(`/console/api/webhooks/${endpoint.id}/deliveries/${d.id}/resend`, { method: 'POST' });
      toast(t('webhooks.resent', { id: d.event_id }));
      deliveries.reload();
    } catch (error) {
      fail(error);
    }
  };
  const columns = [
    ...deliveryColumns(),
    {
      key: 'actions',
      label: t('webhooks.col.actions'),
      card: 'actions',
      render: (d) =>
        endpoint.status === 'enabled'
          ? html`<${Button} small kind="secondary" icon="rotate-ccw" aria-label=${t('webhooks.resendOf', { id: d.event_id })} onClick=${() => resend(d)}>${t('webhooks.resend')}<//>`
          : '—',
    },
  ];
  return html`<${Card} id="deliveries" title=${t('webhooks.deliveriesTo', { url: endpoint.url })} class="flush list-card" actions=${html`<${Button} small kind="secondary" icon="refresh-cw" onClick=${deliveries.reload}>${t('common.refresh')}<//>`}>
    <${ErrorNote} error=${deliveries.error} onRetry=${deliveries.reload} />
    ${deliveries.data ? html`<${DataTable} caption=${t('webhooks.deliveriesCaption')} columns=${columns} rows=${deliveries.data.data} rowKey=${(d) => d.id} rowProps=${(d) => ({ 'data-delivery-id': d.id })} empty=${t('webhooks.noDeliveries')} emptyIcon="send" />` : null}
  <//>`;
}
