// Customer API keys: create with a model allowlist (the key is shown once), list, revoke.
import { api } from '../api.js';
import { append, h, render as fill } from '../dom.js';
import { dateTime } from '../format.js';
import { showSecretOnce } from '../secret-once.js';
import { badge, checkboxGroup, confirmAction, fail, field, onSubmit, pageHeader, section, table, toast } from '../ui.js';

export function render(main) {
  const reveal = h('div', { 'aria-live': 'polite' });
  const list = h('div');
  const allowlist = h('div');
  const form = onSubmit(
    h('form', { class: 'card', id: 'create-key-form', 'aria-label': 'Create an API key' }, h('div', { class: 'grid-form' }, field('Key name', { name: 'name', required: true, maxlength: 128, placeholder: 'production' })), allowlist, h('p', { class: 'hint' }, 'Leave every model unchecked to allow all models.'), h('button', { type: 'submit' }, 'Create key')),
    async (values, formEl) => {
      const created = await api('/console/api/keys', { method: 'POST', body: { name: values.name, models: values.models?.length ? values.models : undefined } });
      formEl.reset();
      showSecretOnce(reveal, { title: `Key “${created.name}” created`, what: 'API key', value: created.key, id: 'new-key-value' });
      await load();
    },
  );
  append(main, [pageHeader('API keys', 'Keys authenticate your calls to /v1/videos and /v1/video/generations. A key is shown only once, when you create it.'), reveal, section('Create a key', form), section('Your keys', list)]);

  async function load() {
    try {
      const { data } = await api('/console/api/keys');
      fill(
        list,
        table(
          'API keys',
          [
            { label: 'Name', cell: (k) => k.name },
            { label: 'Key', cell: (k) => h('code', {}, k.key_hint) },
            { label: 'Models', cell: (k) => (k.models?.length ? k.models.join(', ') : 'All models') },
            { label: 'Status', cell: (k) => badge(k.status) },
            { label: 'Created', cell: (k) => dateTime(k.created_at), class: 'hide-narrow' },
            {
              label: 'Actions',
              cell: (k) =>
                k.status === 'active'
                  ? h('button', { type: 'button', class: 'danger small', 'aria-label': `Revoke key ${k.name}`, onClick: () => revoke(k) }, 'Revoke')
                  : `Revoked ${dateTime(k.revoked_at)}`,
            },
          ],
          data,
          { empty: 'No keys yet.', rowAttrs: (k) => ({ 'data-key-id': k.id }) },
        ),
      );
    } catch (error) {
      fail(error);
    }
  }

  async function revoke(key) {
    if (!(await confirmAction(`Revoke the key “${key.name}”? Programs using it stop working at once.`, 'Revoke key'))) return;
    try {
      await api(`/console/api/keys/${key.id}`, { method: 'DELETE' });
      toast(`Key “${key.name}” revoked.`);
      await load();
    } catch (error) {
      fail(error);
    }
  }

  api('/console/api/models')
    .then(({ data }) => fill(allowlist, checkboxGroup('Allowed models', 'models', data)))
    .catch(fail);
  load();
}
