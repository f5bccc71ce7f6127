// Customer API keys: create with a model allowlist and limits (the key is shown once), list with their use, edit limits, revoke.
import { api } from '../api.js';
import { DataTable } from '../components/data-table.js';
import { useSubmit } from '../components/form.js';
import { KeyLimitFields, keyLimitValues } from '../components/key-limits.js';
import { KeyEditForm, keyColumns, useKeyActions } from '../components/key-manage.js';
import { SecretOnce } from '../components/secret-once.js';
import { Button, Card, ErrorNote, Field, PageHeader } from '../components/ui.js';
import { html, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';

export function Keys() {
  const keys = useApi('/console/api/keys');
  const models = useApi('/console/api/models');
  const [created, setCreated] = useState(null);
  const actions = useKeyActions({ keyUrl: (id) => `/console/api/keys/${id}`, onChanged: keys.reload });
  const create = useSubmit(async (values, form) => {
    const key = await api('/console/api/keys', {
      method: 'POST',
      body: { name: values.name, models: values.models?.length ? values.models : undefined, ...keyLimitValues(values) },
    });
    form.reset();
    setCreated(key);
    keys.reload();
  });
  const { editing } = actions;
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
    ${editing ? html`<${Card} title=${t('keys.editTitle', { name: editing.name })}><${KeyEditForm} id="edit-key-form" actions=${actions} /><//>` : null}
    <${Card} title=${t('keys.yours')} class="flush list-card">
      <${ErrorNote} error=${keys.error} onRetry=${keys.reload} />
      ${keys.data ? html`<${DataTable} caption=${t('keys.yours')} columns=${keyColumns(actions)} rows=${keys.data.data} rowKey=${(k) => k.id} rowProps=${(k) => ({ 'data-key-id': k.id })} empty=${t('keys.none')} emptyIcon="key-round" />` : null}
    <//>
    ${actions.confirmDialog}
  </div>`;
}
