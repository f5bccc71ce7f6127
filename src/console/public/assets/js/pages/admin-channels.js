// Admin: upstream channels — create, edit, enable/disable, test connectivity, error rates.
import { api } from '../api.js';
import { append, h, render as fill } from '../dom.js';
import { percent, quota } from '../format.js';
import { badge, fail, field, onSubmit, openDialog, pageHeader, section, table, toast } from '../ui.js';

const PLATFORMS = [['alpha', 'alpha (family A)'], ['beta', 'beta (family B)'], ['gamma', 'gamma (family C)']];
const HIGH_ERROR_RATE = 0.1;

export function render(main) {
  const list = h('div');
  append(main, [
    pageHeader('Channels', 'Upstream provider accounts the gateway routes tasks to. Provider keys are write-only.'),
    h('div', { class: 'toolbar', style: 'margin-bottom:1rem' }, h('button', { type: 'button', onClick: () => edit(null) }, 'New channel')),
    section('All channels', list),
  ]);
  const results = new Map();

  async function load() {
    try {
      const { data } = await api('/api/admin/channels');
      fill(
        list,
        table(
          'Channels',
          [
            { label: 'ID', cell: (c) => String(c.id), num: true },
            { label: 'Name', cell: (c) => c.name },
            { label: 'Platform', cell: (c) => c.platform },
            { label: 'Base URL', cell: (c) => h('code', {}, c.base_url), class: 'hide-narrow' },
            { label: 'Models', cell: (c) => h('span', { title: c.models.join(', ') }, `${c.models.length} model${c.models.length === 1 ? '' : 's'}`) },
            { label: 'Priority / weight', cell: (c) => `${c.priority} / ${c.weight}`, class: 'hide-narrow' },
            { label: 'Status', cell: (c) => badge(c.status) },
            { label: 'Requests', cell: (c) => quota(c.request_count), num: true },
            {
              label: 'Error rate',
              num: true,
              cell: (c) => h('span', { class: c.error_rate >= HIGH_ERROR_RATE ? 'error-text' : null, title: c.last_error ?? '' }, `${percent(c.error_rate)} (${c.error_count})`),
            },
            { label: 'Connectivity', cell: (c) => connectivityCell(c.id) },
            {
              label: 'Actions',
              cell: (c) =>
                h(
                  'div',
                  { class: 'actions' },
                  h('button', { type: 'button', class: 'small', 'aria-label': `Test connectivity of ${c.name}`, onClick: () => test(c) }, 'Test'),
                  h('button', { type: 'button', class: 'secondary small', 'aria-label': `Edit ${c.name}`, onClick: () => edit(c) }, 'Edit'),
                  h('button', { type: 'button', class: c.status === 'enabled' ? 'danger small' : 'small', 'aria-label': `${c.status === 'enabled' ? 'Disable' : 'Enable'} ${c.name}`, onClick: () => toggle(c) }, c.status === 'enabled' ? 'Disable' : 'Enable'),
                ),
            },
          ],
          data,
          { empty: 'No channels yet.', rowAttrs: (c) => ({ 'data-channel-id': c.id }) },
        ),
      );
    } catch (error) {
      fail(error);
    }
  }

  function connectivityCell(id) {
    const result = results.get(id);
    const cell = h('span', { 'aria-live': 'polite', id: `conn-${id}` });
    if (result === 'pending') cell.textContent = 'Testing…';
    else if (result) {
      append(cell, [badge(result.ok ? 'OK' : 'Failed', result.ok ? 'ok' : 'failed'), ` ${result.latency_ms} ms via ${result.method}`, result.error ? h('div', { class: 'error-text' }, result.error) : null]);
    } else cell.textContent = 'Not tested';
    return cell;
  }

  async function test(channel) {
    results.set(channel.id, 'pending');
    await load();
    try {
      results.set(channel.id, await api(`/api/admin/channels/${channel.id}/test`, { method: 'POST', body: {} }));
    } catch (error) {
      results.delete(channel.id);
      fail(error);
    }
    await load();
  }

  async function toggle(channel) {
    try {
      await api(`/api/admin/channels/${channel.id}`, { method: 'PATCH', body: { status: channel.status === 'enabled' ? 'disabled' : 'enabled' } });
      toast(`Channel ${channel.name} ${channel.status === 'enabled' ? 'disabled' : 'enabled'}.`);
      await load();
    } catch (error) {
      fail(error);
    }
  }

  function edit(channel) {
    const isNew = channel === null;
    const settings = channel?.settings ?? {};
    openDialog(isNew ? 'New channel' : `Edit ${channel.name}`, (close) =>
      onSubmit(
        h(
          'form',
          { class: 'grid-form', id: 'channel-form' },
          field('Name', { name: 'name', required: true, value: channel?.name ?? '' }),
          isNew ? field('Platform', { tag: 'select', name: 'platform', options: PLATFORMS }) : null,
          field('Base URL', { name: 'base_url', type: 'url', required: true, value: channel?.base_url ?? '' }),
          field('Provider API key', { name: 'api_key', type: 'password', required: isNew, autocomplete: 'off' }, isNew ? null : 'Leave empty to keep the current key.'),
          field('Models', { name: 'models', required: true, value: channel?.models.join(', ') ?? '' }, 'Public model ids, comma separated.'),
          field('Priority', { name: 'priority', type: 'number', step: 1, value: channel?.priority ?? 0 }),
          field('Weight', { name: 'weight', type: 'number', min: 0, step: 1, value: channel?.weight ?? 1 }),
          field('Poll interval (ms)', { name: 'poll_interval_ms', type: 'number', min: 100, step: 1, value: settings.poll_interval_ms ?? '' }, 'Empty: the family default.'),
          field('Max concurrency', { name: 'max_concurrency', type: 'number', min: 1, step: 1, value: settings.max_concurrency ?? '' }),
          field('User groups', { name: 'groups', value: channel?.groups?.join(', ') ?? '' }, 'Comma separated; empty: every group.'),
          // Family C only: the control plane used for real-person verification and portrait assets.
          field('Control plane URL (family C)', { name: 'control_base_url', type: 'url', value: settings.control_base_url ?? '' }),
          field('Access key (family C)', { name: 'access_key', autocomplete: 'off' }, isNew ? null : 'Leave empty to keep the current one.'),
          field('Secret key (family C)', { name: 'secret_key', type: 'password', autocomplete: 'off' }, isNew ? null : 'Leave empty to keep the current one.'),
          field('Region (family C)', { name: 'region', value: settings.region ?? '' }, 'Empty: cn-beijing.'),
          field('Project (family C)', { name: 'project_name', value: settings.project_name ?? '' }, 'Empty: default.'),
          h('div', {}, h('button', { type: 'submit' }, isNew ? 'Create channel' : 'Save changes')),
        ),
        async (values) => {
          const list = (text) => text.split(',').map((s) => s.trim()).filter(Boolean);
          const nextSettings = {};
          if (values.poll_interval_ms) nextSettings.poll_interval_ms = Number(values.poll_interval_ms);
          if (values.max_concurrency) nextSettings.max_concurrency = Number(values.max_concurrency);
          for (const name of ['control_base_url', 'access_key', 'secret_key', 'region', 'project_name']) {
            if (values[name]) nextSettings[name] = values[name].trim();
          }
          const body = {
            name: values.name,
            base_url: values.base_url,
            models: list(values.models),
            priority: Number(values.priority || 0),
            weight: Number(values.weight || 1),
            groups: list(values.groups),
            ...(Object.keys(nextSettings).length ? { settings: nextSettings } : {}),
            ...(values.api_key ? { api_key: values.api_key } : {}),
          };
          if (isNew) await api('/api/admin/channels', { method: 'POST', body: { ...body, platform: values.platform } });
          else await api(`/api/admin/channels/${channel.id}`, { method: 'PATCH', body });
          toast(isNew ? `Channel ${values.name} created.` : `Channel ${values.name} saved.`);
          close();
          await load();
        },
      ),
    );
  }

  load();
}
