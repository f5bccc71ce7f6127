// Managing a list of API keys, shared by the customer's keys page and the admin's Manage dialog:
// the list's columns, the form that edits a key's limits, and the edit/revoke actions. Only the
// URLs differ between the two (the admin acts on any user's keys).
import { api } from '../api.js';
import { useConfirm } from './confirm.js';
import { useSubmit } from './form.js';
import { KeyLimitFields, KeyLimitsSummary, keyLimitValues } from './key-limits.js';
import { Badge, Button, fail, toast } from './ui.js';
import { compactDateTime, dateTime } from '../lib/format.js';
import { html, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';

/**
 * Edit (PATCH `keyUrl(id)`) and revoke (DELETE `revokeUrl(id)`, after a confirmation) a key;
 * `onChanged` reloads the list. Render `confirmDialog` somewhere in the page.
 * @param {{ keyUrl: (id: number) => string, revokeUrl?: (id: number) => string, onChanged: () => void }} urls
 */
export function useKeyActions({ keyUrl, revokeUrl = keyUrl, onChanged }) {
  const [editing, setEditing] = useState(null);
  const [confirmDialog, confirm] = useConfirm();
  const edit = useSubmit(async (values) => {
    await api(keyUrl(editing.id), { method: 'PATCH', body: keyLimitValues(values) });
    toast(t('keys.limitsSaved', { name: editing.name }));
    setEditing(null);
    onChanged();
  });
  const revoke = async (key) => {
    if (!(await confirm(t('keys.revokeQuestion', { name: key.name }), t('keys.revoke')))) return;
    try {
      await api(revokeUrl(key.id), { method: 'DELETE' });
      toast(t('keys.revoked', { name: key.name }));
      onChanged();
    } catch (error) {
      fail(error);
    }
  };
  return { editing, setEditing, edit, revoke, confirmDialog };
}

/** The key list's columns; the actions (edit limits, revoke) come from useKeyActions. */
export function keyColumns({ setEditing, revoke }) {
  return [
    { key: 'name', label: t('keys.col.name'), card: 'title', render: (k) => html`<strong>${k.name}</strong>` },
    { key: 'status', label: t('keys.col.status'), card: 'badge', render: (k) => html`<${Badge} status=${k.status} />` },
    { key: 'key', label: t('keys.col.key'), class: 'nowrap', render: (k) => html`<code>${k.key_hint}</code>` },
    {
      key: 'models',
      label: t('keys.col.models'),
      wide: true,
      render: (k) =>
        k.models?.length
          ? html`<span class="chips">${k.models.map((m) => html`<code class="chip">${m}</code>`)}</span>`
          : t('keys.allModels'),
    },
    { key: 'limits', label: t('keys.col.limits'), wide: true, render: (k) => html`<${KeyLimitsSummary} apiKey=${k} />` },
    {
      key: 'created',
      label: t('keys.col.created'),
      class: 'nowrap',
      render: (k) => html`<span title=${dateTime(k.created_at)}>${compactDateTime(k.created_at)}</span>`,
    },
    {
      key: 'actions',
      label: t('keys.col.actions'),
      card: 'actions',
      render: (k) =>
        k.status !== 'revoked'
          ? html`<span class="actions"><${Button} small icon="shield" aria-label=${t('keys.editOf', { name: k.name })} onClick=${() => setEditing(k)}>${t('keys.edit')}<//>
              <${Button} kind="danger" small icon="ban" aria-label=${t('keys.revokeOf', { name: k.name })} onClick=${() => revoke(k)}>${t('keys.revoke')}<//></span>`
          : html`<span class="muted">${t('keys.revokedAt', { at: compactDateTime(k.revoked_at) })}</span>`,
    },
  ];
}

/** The form editing the limits of the key being edited (`actions.editing`). */
export function KeyEditForm({ id, actions, rpmHelp }) {
  const { editing, setEditing, edit } = actions;
  return html`<form id=${id} key=${editing.id} class="stack" aria-label=${t('keys.editTitle', { name: editing.name })} onSubmit=${edit.onSubmit}>
    <${KeyLimitFields} current=${editing} rpmHelp=${rpmHelp} />
    <div class="actions"><${Button} type="submit" icon="check" disabled=${edit.busy}>${t('keys.saveLimits')}<//>
      <${Button} kind="ghost" onClick=${() => setEditing(null)}>${t('keys.cancel')}<//></div>
  </form>`;
}
