// Admin: one user's API keys inside the Manage dialog — list them with their use against their
// limits, issue one with limits (shown once), edit a key's limits, revoke it.
import { api } from '../api.js';
import { DataTable } from '../components/data-table.js';
import { useSubmit } from '../components/form.js';
import { KeyLimitFields, keyLimitValues } from '../components/key-limits.js';
import { KeyEditForm, keyColumns, useKeyActions } from '../components/key-manage.js';
import { SecretOnce } from '../components/secret-once.js';
import { Button, ErrorNote, Field, Loading } from '../components/ui.js';
import { html, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';

export function AdminUserKeys({ user }) {
  const base = `/api/admin/users/${user.id}/keys`;
  const keys = useApi(base);
  const [created, setCreated] = useState(null);
  const actions = useKeyActions({
    keyUrl: (id) => `${base}/${id}`,
    // Revoking is the one key action not under the user (a key id is enough).
    revokeUrl: (id) => `/api/admin/keys/${id}`,
    onChanged: keys.reload,
  });
  const create = useSubmit(async (values, form) => {
    const key = await api(base, { method: 'POST', body: { name: values.name, ...keyLimitValues(values) } });
    form.reset();
    setCreated(key);
    keys.reload();
  });
  const { editing } = actions;
  const rpmHelp = t('users.keyRpmHelp');
  return html`<section class="user-keys" aria-labelledby="user-keys-title"><h3 id="user-keys-title">${t('users.keys')}</h3>
    ${created ? html`<${SecretOnce} id="admin-new-key-value" title=${t('keys.created', { name: created.name })} what=${t('keys.secretLabel')} value=${created.key} onDone=${() => setCreated(null)} />` : null}
    <${ErrorNote} error=${keys.error} onRetry=${keys.reload} />
    ${
      keys.data
        ? html`<${DataTable} caption=${t('users.keysOf', { name: user.username })} columns=${keyColumns(actions)} rows=${keys.data.data} rowKey=${(k) => k.id}
        rowProps=${(k) => ({ 'data-key-id': k.id })} empty=${t('users.noKeys')} emptyIcon="key-round" />`
        : keys.loading
          ? html`<${Loading} />`
          : null
    }
    ${editing ? html`<h4>${t('keys.editTitle', { name: editing.name })}</h4><${KeyEditForm} id="admin-edit-key-form" actions=${actions} rpmHelp=${rpmHelp} />` : null}
    <details class="new-key">
      <summary>${t('users.createKey')}</summary>
      <form id="admin-create-key-form" class="stack" aria-label=${t('users.createKey')} onSubmit=${create.onSubmit}>
        <div class="grid-form"><${Field} label=${t('keys.name')} name="name" required maxlength="128" placeholder="production" /></div>
        <fieldset><legend>${t('keys.limits')}</legend><${KeyLimitFields} rpmHelp=${rpmHelp} /></fieldset>
        <div><${Button} type="submit" icon="plus" disabled=${create.busy}>${t('keys.createButton')}<//></div>
      </form>
    </details>
    ${actions.confirmDialog}
  </section>`;
}
