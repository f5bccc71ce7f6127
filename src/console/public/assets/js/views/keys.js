// Customer API keys: create with a model allowlist and limits (the key is shown once), list with their use, edit limits, revoke.
import { api } from '../api.js';
import { useConfirm } from '../components/confirm.js';
import { DataTable } from '../components/data-table.js';
import { useSubmit } from '../components/form.js';
import { KeyLimitFields, KeyLimitsSummary, keyLimitValues } from '../components/key-limits.js';
import { SecretOnce } from '../components/secret-once.js';
import { Badge, Button, Card, ErrorNote, Field, PageHeader, fail, toast } from '../components/ui.js';
import { compactDateTime, dateTime } from '../lib/format.js';
import { html, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';

export function Keys() {
  const keys = useApi('/console/api/keys');
  const models = useApi('/console/api/models');
  const [created, setCreated] = useState(null);
  const [editing, setEditing] = useState(null);
  const [confirmDialog, confirm] = useConfirm();
  const create = useSubmit(async (values, form) => {
    const key = await api('/console/api/keys', {
      method: 'POST',
      body: { name: values.name, models: values.models?.length ? values.models : undefined, ...keyLimitValues(values) },
    });
    form.reset();
    setCreated(key);
    keys.reload();
  });
  const edit = useSubmit(async (values) => {
    await api(`/console/api/keys/${editing.id}`, { method: 'PATCH', body: keyLimitValues(values) });
    toast(t('keys.limitsSaved', { name: editing.name }));
    setEditing(null);
    keys.reload();
  });
  const revoke = async (key) => {
    if (!(await confirm(t('keys.revokeQuestion', { name: key.name }), t('keys.revoke')))) return;
    try {
      await api(`/console/api/keys/${key.id}`, { method: 'DELETE' });
      toast(t('keys.revoked', { name: key.name }));
      keys.reload();
    } catch (error) {
      fail(error);
    }
  };
  const columns = [
    { key: 'name', label: t('keys.col.name'), card: 'title', render: (k) => html`<strong>${k.name}</strong>` },
    { key: 'status', label: t('keys.col.status'), card: 'badge', render: (k) => html`<${Badge} status=${k.status} />` },
    { key: 'key', label: t('keys.col.key'), render: (k) => html`<code>${k.key_hint}</code>` },
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
        k.status === 'active'
          ? html`<span class="actions"><${Button} small icon="shield" aria-label=${t('keys.editOf', { name: k.name })} onClick=${() => setEditing(k)}>${t('keys.edit')}<//>
              <${Button} kind="danger" small icon="ban" aria-label=${t('keys.revokeOf', { name: k.name })} onClick=${() => revoke(k)}>${t('keys.revoke')}<//></span>`
          : html`<span class="muted">${t('keys.revokedAt', { at: compactDateTime(k.revoked_at) })}</span>`,
    },
  ];
  return html`<div class="keys-page">
    <${PageHeader} title=${t('keys.title')} intro=${t('keys.intro')} />
    ${created ? html`<${SecretOnce} id="new-key-value" title=${t('keys.created', { name: created.name })} what=${t('keys.secretLabel')} value=${created.key} onDone=${() => setCreated(null)} />` : null}
    <${Card} title=${t('keys.create')}>
      <form id="create-key-form" class="stack" aria-label=${t('keys.create')} onSubmit=${create.onSubmit}>
        <div class="grid-form"><${Field} label=${t('keys.name')} name="name" required maxlength="128" placeholder="production" /></div>
        <fieldset><legend>${t('keys.allowedModels')}</legend>
          ${models.data ? (models.data.data.length ? html`<div class="checks">${models.data.data.map((m) => html`<label><input type="checkbox" name="models" value=${m} data-multi="1" />${m}</label>`)}</div>` : html`<p class="muted">${t('keys.noModels')}</p>`) : null}
        </fieldset>
        <p class="hint">${t('keys.allowHint')}</p>
        <fieldset><legend>${t('keys.limits')}</legend><${KeyLimitFields} /></fieldset>
        <div><${Button} type="submit" icon="plus" disabled=${create.busy}>${t('keys.createButton')}<//></div>
      </form>
    <//>
    ${
      editing
        ? html`<${Card} title=${t('keys.editTitle', { name: editing.name })}>
          <form id="edit-key-form" key=${editing.id} class="stack" aria-label=${t('keys.editTitle', { name: editing.name })} onSubmit=${edit.onSubmit}>
            <${KeyLimitFields} current=${editing} />
            <div class="actions"><${Button} type="submit" icon="check" disabled=${edit.busy}>${t('keys.saveLimits')}<//>
              <${Button} kind="ghost" onClick=${() => setEditing(null)}>${t('keys.cancel')}<//></div>
          </form>
        <//>`
        : null
    }
    <${Card} title=${t('keys.yours')} class="flush list-card">
      <${ErrorNote} error=${keys.error} onRetry=${keys.reload} />
      ${keys.data ? html`<${DataTable} caption=${t('keys.yours')} columns=${columns} rows=${keys.data.data} rowKey=${(k) => k.id} rowProps=${(k) => ({ 'data-key-id': k.id })} empty=${t('keys.none')} emptyIcon="key-round" />` : null}
    <//>
    ${confirmDialog}
  </div>`;
}
