// The customer's per-request callbacks on the webhooks page: whether the callback secret is set
// (and when it was created and rotated), a button that creates or rotates it (the secret shown once),
// and the callback attempts with their status codes.
import { api } from '../api.js';
import { useConfirm } from '../components/confirm.js';
import { DataTable } from '../components/data-table.js';
import { deliveryColumns, useDeliveries } from '../components/delivery-bits.js';
import { SecretOnce } from '../components/secret-once.js';
import { Badge, Button, Card, ErrorNote, fail } from '../components/ui.js';
import { dateTime } from '../lib/format.js';
import { html, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';

export function CallbackSecret() {
  const state = useApi('/console/api/webhooks/callback-secret');
  const deliveries = useDeliveries('/console/api/webhooks/callback-deliveries');
  const [shown, setShown] = useState(null);
  const [busy, setBusy] = useState(false);
  const [confirmDialog, confirm] = useConfirm();
  const isSet = state.data?.set === true;
  const createOrRotate = async () => {
    if (isSet && !(await confirm(t('callbacks.rotateQuestion'), t('callbacks.rotate')))) return;
    setBusy(true);
    try {
      const { secret } = await api('/console/api/webhooks/callback-secret', { method: 'POST' });
      setShown(secret);
      state.reload();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };
  const columns = deliveryColumns();
  const status = !state.data
    ? null
    : isSet
      ? html`<p id="callback-secret-state"><${Badge} status="enabled">${t('callbacks.set')}<//> <span class="muted small">${t('callbacks.createdAt', { at: dateTime(state.data.created_at) })}${state.data.rotated_at ? ` · ${t('callbacks.rotatedAt', { at: dateTime(state.data.rotated_at) })}` : ''}</span></p>`
      : html`<p id="callback-secret-state"><${Badge} status="pending">${t('callbacks.notSet')}<//> <span class="muted small">${t('callbacks.notSetHelp')}</span></p>`;
  return html`<div class="callbacks">
    ${shown ? html`<${SecretOnce} id="new-callback-secret" title=${t('callbacks.created')} what=${t('callbacks.secretLabel')} value=${shown} onDone=${() => setShown(null)} />` : null}
    <${Card} title=${t('callbacks.title')} id="callback-secret">
      <p class="muted">${t('callbacks.intro')}</p>
      <${ErrorNote} error=${state.error} onRetry=${state.reload} />
      ${status}
      ${state.data ? html`<div><${Button} kind=${isSet ? 'secondary' : 'primary'} icon=${isSet ? 'rotate-ccw' : 'plus'} disabled=${busy} onClick=${createOrRotate}>${isSet ? t('callbacks.rotate') : t('callbacks.create')}<//></div>` : null}
    <//>
    <${Card} id="callback-deliveries" title=${t('callbacks.deliveries')} class="flush list-card" actions=${html`<${Button} small kind="secondary" icon="refresh-cw" onClick=${deliveries.reload}>${t('common.refresh')}<//>`}>
      <${ErrorNote} error=${deliveries.error} onRetry=${deliveries.reload} />
      ${deliveries.data ? html`<${DataTable} caption=${t('callbacks.deliveries')} columns=${columns} rows=${deliveries.data.data} rowKey=${(d) => d.id} rowProps=${(d) => ({ 'data-callback-delivery-id': d.id })} empty=${t('callbacks.noDeliveries')} emptyIcon="send" />` : null}
    <//>
    ${confirmDialog}
  </div>`;
}
