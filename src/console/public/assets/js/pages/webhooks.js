// Customer webhooks: register endpoints (the signing secret is shown once), see each endpoint's deliveries with status codes, resend, test, enable again.
import { api } from '../api.js';
import { append, h, render as fill } from '../dom.js';
import { dateTime } from '../format.js';
import { showSecretOnce } from '../secret-once.js';
import { badge, checkboxGroup, confirmAction, fail, field, onSubmit, pageHeader, section, table, toast } from '../ui.js';

const EVENTS = ['video.completed', 'video.failed'];

export function render(main) {
  const reveal = h('div', { 'aria-live': 'polite' });
  const list = h('div');
  const deliveries = h('div', { 'aria-live': 'polite' });
  const form = onSubmit(
    h(
      'form',
      { class: 'card', id: 'create-webhook-form', 'aria-label': 'Add a webhook endpoint' },
      h('div', { class: 'grid-form' }, field('Endpoint URL', { name: 'url', type: 'url', required: true, maxlength: 2048, placeholder: 'https://example.com/hooks/video' })),
      checkboxGroup('Events', 'events', EVENTS, EVENTS),
      h('button', { type: 'submit' }, 'Add endpoint'),
    ),
    async (values, formEl) => {
      const created = await api('/console/api/webhooks', { method: 'POST', body: { url: values.url, events: values.events?.length ? values.events : undefined } });
      formEl.reset();
      showSecretOnce(reveal, { title: `Endpoint ${created.url} added`, what: 'signing secret', value: created.secret, id: 'new-webhook-secret' });
      await load();
    },
  );
  append(main, [
    pageHeader(
      'Webhooks',
      'The gateway POSTs video.completed and video.failed to your endpoints, signed per Standard Webhooks (verify with the openai SDK’s webhooks.verifySignature). Anything but a 2xx within 10 s is retried for about a day; an endpoint failing for 3 days is disabled.',
    ),
    reveal,
    section('Add an endpoint', form),
    section('Your endpoints', list),
    deliveries,
  ]);

  async function load() {
    try {
      const { data } = await api('/console/api/webhooks');
      fill(
        list,
        table(
          'Webhook endpoints',
          [
            { label: 'URL', cell: (e) => h('code', {}, e.url) },
            { label: 'Events', cell: (e) => e.events.join(', ') },
            {
              label: 'Status',
              cell: (e) => [
                badge(e.status),
                e.status === 'disabled' ? h('div', { class: 'error-text' }, `Disabled ${dateTime(e.disabled_at)} after 3 days of failed deliveries`) : null,
                e.status === 'enabled' && e.failing_since ? h('div', { class: 'error-text' }, `Failing since ${dateTime(e.failing_since)}`) : null,
              ],
            },
            { label: 'Created', cell: (e) => dateTime(e.created_at), class: 'hide-narrow' },
            {
              label: 'Actions',
              cell: (e) => [
                h('button', { type: 'button', class: 'small', 'aria-label': `Deliveries of ${e.url}`, onClick: () => showDeliveries(e) }, 'Deliveries'),
                ' ',
                h('button', { type: 'button', class: 'secondary small', 'aria-label': `Send a test event to ${e.url}`, onClick: () => sendTest(e) }, 'Test'),
                ' ',
                e.status === 'disabled' ? [h('button', { type: 'button', class: 'secondary small', 'aria-label': `Enable ${e.url}`, onClick: () => enable(e) }, 'Enable'), ' '] : null,
                h('button', { type: 'button', class: 'danger small', 'aria-label': `Delete ${e.url}`, onClick: () => remove(e) }, 'Delete'),
              ],
            },
          ],
          data,
          { empty: 'No endpoints yet.', rowAttrs: (e) => ({ 'data-endpoint-id': e.id }) },
        ),
      );
    } catch (error) {
      fail(error);
    }
  }

  async function showDeliveries(endpoint) {
    try {
      const { data } = await api(`/console/api/webhooks/${endpoint.id}/deliveries`);
      fill(
        deliveries,
        section(
          `Deliveries to ${endpoint.url}`,
          h('button', { type: 'button', class: 'secondary small', onClick: () => showDeliveries(endpoint) }, 'Refresh'),
          table(
            'Delivery attempts, newest first',
            [
              { label: 'Event', cell: (d) => [h('code', {}, d.event_id), h('div', { class: 'hint' }, d.type)] },
              { label: 'Task', cell: (d) => (d.task_id ? h('code', {}, d.task_id) : '—'), class: 'hide-narrow' },
              { label: 'Attempt', cell: (d) => String(d.attempt), num: true },
              { label: 'Status code', cell: (d) => (d.status_code === null ? '—' : String(d.status_code)), num: true },
              { label: 'Result', cell: (d) => resultOf(d) },
              { label: 'At', cell: (d) => dateTime(d.created_at), class: 'hide-narrow' },
              { label: 'Next attempt', cell: (d) => (d.next_attempt_at ? dateTime(d.next_attempt_at) : '—'), class: 'hide-narrow' },
              { label: 'Actions', cell: (d) => (endpoint.status === 'enabled' ? h('button', { type: 'button', class: 'secondary small', 'aria-label': `Resend ${d.event_id}`, onClick: () => resend(endpoint, d) }, 'Resend') : '—') },
            ],
            data,
            { empty: 'Nothing sent yet.', rowAttrs: (d) => ({ 'data-delivery-id': d.id }) },
          ),
        ),
      );
    } catch (error) {
      fail(error);
    }
  }

  async function sendTest(endpoint) {
    try {
      const attempt = await api(`/console/api/webhooks/${endpoint.id}/test`, { method: 'POST' });
      toast(attempt.delivered_at ? `Test event delivered (HTTP ${attempt.status_code}).` : `Test event not delivered: ${attempt.error}`, attempt.delivered_at ? 'info' : 'error');
      await showDeliveries(endpoint);
    } catch (error) {
      fail(error);
    }
  }

  async function resend(endpoint, delivery) {
    try {
      await api(`/console/api/webhooks/${endpoint.id}/deliveries/${delivery.id}/resend`, { method: 'POST' });
      toast(`${delivery.event_id} will be sent again in a moment.`);
      await showDeliveries(endpoint);
    } catch (error) {
      fail(error);
    }
  }

  async function enable(endpoint) {
    try {
      await api(`/console/api/webhooks/${endpoint.id}/enable`, { method: 'POST' });
      toast(`${endpoint.url} enabled again.`);
      await load();
    } catch (error) {
      fail(error);
    }
  }

  async function remove(endpoint) {
    if (!(await confirmAction(`Delete the endpoint ${endpoint.url}? Nothing more is sent to it.`, 'Delete endpoint'))) return;
    try {
      await api(`/console/api/webhooks/${endpoint.id}`, { method: 'DELETE' });
      fill(deliveries);
      toast('Endpoint deleted.');
      await load();
    } catch (error) {
      fail(error);
    }
  }

  load();
}

function resultOf(delivery) {
  if (delivery.delivered_at) return badge('delivered', 'succeeded');
  if (delivery.status_code === null && !delivery.error) return badge('pending');
  return [badge('failed'), h('div', { class: 'error-text' }, delivery.error ?? '')];
}
