// Admin: upstream channels — create, edit, enable/disable, test connectivity, requests and error rates,
// each channel's breaker (refreshed every few seconds) and closing an open one by hand.
// The platforms, their labels and each one's settings come from GET /api/admin/platforms (the family registry):
// a new family needs no change here. Provider keys and secret settings are write-only: empty fields keep the stored ones.
// A channel's models are picked from the catalog's models routed on its platform (GET /api/admin/models?platform=).
import { api } from '../api.js';
import { BreakerCell } from '../components/breaker-bits.js';
import { DataTable } from '../components/data-table.js';
import { FormError, KeptField, useSubmit } from '../components/form.js';
import { Badge, Button, Card, Dialog, ErrorNote, Field, Loading, PageHeader, fail, toast } from '../components/ui.js';
import { rate } from '../lib/admin-format.js';
import { num } from '../lib/format.js';
import { html, useEffect, useRef, useState } from '../lib/html.js';
import { hrefFor } from '../lib/url-state.js';
import { t, useLang } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';

const HIGH_ERROR_RATE = 0.1;
/** Breakers open and close by themselves: the list is read again this often. */
const REFRESH_MS = 10_000;

/** A registry text ({en, 'zh-CN'}) in the console's language, English when it has none. */
const localized = (text, lang) => text?.[lang] ?? text?.en ?? '';

export function AdminChannels() {
  const channels = useApi('/api/admin/channels', {}, { poll: () => REFRESH_MS });
  const platforms = useApi('/api/admin/platforms');
  const lang = useLang();
  const platformList = platforms.data?.data ?? [];
  const platformLabel = (name) => localized(platformList.find((p) => p.platform === name)?.label, lang) || name;
  const [results, setResults] = useState({});
  const [editing, setEditing] = useState(null);

  const test = async (channel) => {
    setResults((r) => ({ ...r, [channel.id]: 'pending' }));
    try {
      const result = await api(`/api/admin/channels/${channel.id}/test`, { method: 'POST', body: {} });
      setResults((r) => ({ ...r, [channel.id]: result }));
    } catch (error) {
      setResults((r) => ({ ...r, [channel.id]: undefined }));
      fail(error);
    }
    channels.reload();
  };
  const toggle = async (channel) => {
    const enabling = channel.status !== 'enabled';
    try {
      await api(`/api/admin/channels/${channel.id}`, { method: 'PATCH', body: { status: enabling ? 'enabled' : 'disabled' } });
      toast(t(enabling ? 'channels.enabledToast' : 'channels.disabledToast', { name: channel.name }));
      channels.reload();
    } catch (error) {
      fail(error);
    }
  };

  const closeBreaker = async (channel) => {
    try {
      await api(`/api/admin/channels/${channel.id}/breaker/close`, { method: 'POST', body: {} });
      toast(t('channels.breakerClosedToast', { name: channel.name }));
      channels.reload();
    } catch (error) {
      fail(error);
    }
  };

  const columns = [
    {
      key: 'name',
      label: t('channels.col.name'),
      card: 'title',
      class: 'col-channel',
      render: (c) =>
        html`<div class="channel-cell"><strong>${c.name}</strong> <span class="muted">#${c.id}</span><div class="muted small">${platformLabel(c.platform)}</div><code class="channel-url" title=${c.base_url}>${c.base_url}</code></div>`,
    },
    {
      key: 'status',
      label: t('channels.col.status'),
      card: 'badge',
      // Its breaker under the status, once it has something to say (a fault counted, open, half-open), with a button to close it.
      render: (c) =>
        html`<div class="channel-status"><${Badge} status=${c.status} />${
          c.breaker.state !== 'closed' || c.breaker.failures
            ? html`<${BreakerCell} breaker=${c.breaker} />${c.breaker.state !== 'closed' ? html`<${Button} small kind="ghost" icon="rotate-ccw" aria-label=${t('channels.closeBreakerOf', { name: c.name })} onClick=${() => closeBreaker(c)}>${t('channels.closeBreaker')}<//>` : null}`
            : null
        }</div>`,
    },
    {
      key: 'models',
      label: t('channels.col.models'),
      class: 'nowrap',
      render: (c) => html`<span title=${c.models.join(', ')}>${t('channels.modelCount', { n: c.models.length })}</span>`,
    },
    { key: 'priority', label: t('channels.col.priority'), num: true, class: 'nowrap', render: (c) => `${c.priority} / ${c.weight}` },
    { key: 'requests', label: t('channels.col.requests'), num: true, render: (c) => num(c.request_count) },
    {
      key: 'errors',
      label: t('channels.col.errorRate'),
      num: true,
      render: (c) =>
        html`<span class=${c.error_rate >= HIGH_ERROR_RATE ? 'error-text' : undefined} title=${c.last_error ?? ''}>${rate(c.error_rate)} (${num(c.error_count)})</span>`,
    },
    {
      key: 'connectivity',
      label: t('channels.col.connectivity'),
      wide: true,
      render: (c) => html`<${Connectivity} id=${c.id} result=${results[c.id]} />`,
    },
    {
      key: 'actions',
      label: t('channels.col.actions'),
      card: 'actions',
      render: (c) => html`<div class="actions nowrap">
        <${Button} small icon="send" disabled=${results[c.id] === 'pending'} aria-label=${t('channels.testOf', { name: c.name })} onClick=${() => test(c)}>${t('channels.test')}<//>
        <${Button} small kind="secondary" aria-label=${t('channels.editOf', { name: c.name })} onClick=${() => setEditing(c)}>${t('channels.edit')}<//>
        <${Button} small kind=${c.status === 'enabled' ? 'danger' : 'secondary'} aria-label=${t(c.status === 'enabled' ? 'channels.disableOf' : 'channels.enableOf', { name: c.name })} onClick=${() => toggle(c)}>${t(c.status === 'enabled' ? 'channels.disable' : 'channels.enable')}<//>
      </div>`,
    },
  ];

  return html`<div class="admin-channels">
    <${PageHeader} title=${t('channels.title')} intro=${t('channels.intro')} actions=${html`<${Button} icon="plus" onClick=${() => setEditing('new')}>${t('channels.new')}<//>`} />
    <${ErrorNote} error=${channels.error ?? platforms.error} onRetry=${() => {
      channels.reload();
      platforms.reload();
    }} />
    ${
      channels.data
        ? html`<${Card} title=${t('channels.all')} class="flush list-card">
      <${DataTable} caption=${t('channels.all')} columns=${columns} rows=${channels.data.data} rowKey=${(c) => c.id} rowProps=${(c) => ({ 'data-channel-id': c.id })} empty=${t('channels.none')} emptyIcon="server" />
    <//>`
        : channels.loading
          ? html`<${Loading} />`
          : null
    }
    ${editing && platforms.data ? html`<${ChannelForm} channel=${editing === 'new' ? null : editing} platforms=${platformList} lang=${lang} onClose=${() => setEditing(null)} onSaved=${channels.reload} />` : null}
  </div>`;
}

function Connectivity({ id, result }) {
  let body = html`<span class="muted">${t('channels.notTested')}</span>`;
  if (result === 'pending') body = html`<span class="muted">${t('channels.testing')}</span>`;
  else if (result) {
    // Says what was proven: the key (the family's test call) or only that the host answers.
    const said = t(`channels.result.${result.method}.${result.ok ? 'ok' : 'failed'}`);
    body = html`<${Badge} tone=${result.ok ? 'success' : 'danger'} icon=${result.ok ? 'circle-check' : 'circle-alert'}>${t(result.ok ? 'channels.ok' : 'channels.failed')}<//> ${said} · ${t('channels.ms', { ms: num(result.latency_ms) })}${result.error ? html`<div class="error-text small">${result.error}</div>` : null}`;
  }
  return html`<span aria-live="polite" id=${`conn-${id}`} class="connectivity">${body}</span>`;
}

/** One setting's form field, as its platform defines it (type, default, secret). */
function SettingField({ setting, stored, keep, lang }) {
  const isNumber = setting.type === 'integer' || setting.type === 'number';
  const type = setting.secret ? 'password' : isNumber ? 'number' : setting.type === 'url' ? 'url' : 'text';
  const numeric = isNumber ? { min: setting.min, max: setting.max, step: setting.type === 'integer' ? '1' : 'any' } : {};
  const value = setting.secret ? undefined : (stored ?? '');
  const help = setting.secret ? (keep ?? localized(setting.description, lang)) : localized(setting.description, lang);
  return html`<${KeptField} label=${localized(setting.label, lang)} name=${`setting.${setting.name}`} type=${type} required=${setting.required && stored === undefined}
    autocomplete=${setting.secret ? 'off' : undefined} placeholder=${setting.default ?? undefined} value=${value} help=${help} ...${numeric} />`;
}

function ChannelForm({ channel, platforms, lang, onClose, onSaved }) {
  const isNew = channel === null;
  const settings = channel?.settings ?? {};
  const [platform, setPlatform] = useState(channel?.platform ?? platforms[0]?.platform);
  const definition = platforms.find((p) => p.platform === platform);
  const keep = isNew ? undefined : t('channels.keepSecret');
  const { onSubmit, busy, error } = useSubmit(
    async (values) => {
      const list = (text) =>
        (text ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
      const nextSettings = {};
      for (const setting of definition?.settings ?? []) {
        const text = (values[`setting.${setting.name}`] ?? '').trim();
        // An empty field keeps what is stored (a secret is never shown, so it is always empty).
        if (text)
          nextSettings[setting.name] =
            setting.type === 'integer' || setting.type === 'number' ? Number(text) : setting.type === 'boolean' ? text === 'true' : text;
      }
      const body = {
        name: values.name,
        base_url: values.base_url,
        models: values.models ?? [],
        priority: Number(values.priority || 0),
        weight: Number(values.weight || 1),
        groups: list(values.groups),
        ...(Object.keys(nextSettings).length ? { settings: nextSettings } : {}),
        ...(values.api_key ? { api_key: values.api_key } : {}),
      };
      if (isNew) await api('/api/admin/channels', { method: 'POST', body: { ...body, platform: values.platform } });
      else {
        // Models unchanged are not sent: one the catalog no longer routes here does not keep the rest from being saved.
        if (sameModels(body.models, channel.models)) delete body.models;
        await api(`/api/admin/channels/${channel.id}`, { method: 'PATCH', body });
      }
      toast(t(isNew ? 'channels.created' : 'channels.saved', { name: values.name }));
      onSaved();
      onClose();
    },
    { inline: true },
  );
  return html`<${Dialog} wide title=${isNew ? t('channels.new') : t('channels.editOf', { name: channel.name })} onClose=${onClose}>
    <form class="grid-form" id="channel-form" onSubmit=${onSubmit}>
      <${KeptField} label=${t('channels.col.name')} name="name" required value=${channel?.name ?? ''} />
      ${
        isNew
          ? html`<${Field} as="select" label=${t('channels.platformField')} name="platform" value=${platform} onChange=${(e) => setPlatform(e.target.value)}
        options=${platforms.map((p) => [p.platform, localized(p.label, lang)])} />`
          : null
      }
      <${KeptField} key=${isNew ? `base_url.${platform}` : 'base_url'} label=${t('channels.col.baseUrl')} name="base_url" type="url" required
        value=${channel?.base_url ?? definition?.default_base_url ?? ''} placeholder=${definition?.default_base_url ?? undefined} />
      <${KeptField} label=${t('channels.apiKey')} name="api_key" type="password" required=${isNew} autocomplete="off" help=${keep}
        placeholder=${definition?.api_key_format ?? undefined} />
      <${ModelPicker} key=${platform} platform=${platform} platformLabel=${localized(definition?.label, lang) || platform} listed=${channel?.models ?? []} tickActive=${isNew} />
      <${KeptField} label=${t('channels.priority')} name="priority" type="number" step="1" value=${channel?.priority ?? 0} />
      <${KeptField} label=${t('channels.weight')} name="weight" type="number" min="0" step="1" value=${channel?.weight ?? 1} />
      <${KeptField} label=${t('channels.groups')} name="groups" value=${channel?.groups?.join(', ') ?? ''} help=${t('channels.groupsHelp')} class="span-all" />
      ${
        definition
          ? html`<fieldset class="span-all platform-settings" data-platform=${definition.platform}><legend>${t('channels.settingsOf', { platform: localized(definition.label, lang) })}</legend>
        <div class="grid-form">
          ${definition.settings.map((setting) => html`<${SettingField} key=${`${definition.platform}.${setting.name}`} setting=${setting} stored=${settings[setting.name] ?? undefined} keep=${keep} lang=${lang} />`)}
        </div>
      </fieldset>`
          : null
      }
      ${error ? html`<div class="span-all"><${FormError} error=${error} /></div>` : null}
      <div class="actions span-all"><${Button} type="submit" disabled=${busy}>${t(isNew ? 'channels.create' : 'channels.save')}<//><${Button} kind="secondary" onClick=${onClose}>${t('common.cancel')}<//></div>
    </form>
  <//>`;
}

const lower = (ids) => ids.map((id) => id.toLowerCase()).sort();
const sameModels = (a, b) => a.length === b.length && lower(a).every((id, i) => id === lower(b)[i]);

/**
 * The channel's models: checkboxes for the catalog's models routed on its platform (retired ones only when the
 * channel lists them), those it lists checked (a new channel: every active one); a listed model the catalog does not route there stays, checked
 * and marked, until it is unchecked.
 */
function ModelPicker({ platform, platformLabel, listed, tickActive = false }) {
  const catalog = useApi('/api/admin/models', { platform });
  const [checked, setChecked] = useState(() => new Set(listed.map((id) => id.toLowerCase())));
  // A new channel starts with every active model routed on its platform ticked (the operator unticks what it should not serve).
  const ticked = useRef(!tickActive);
  useEffect(() => {
    if (ticked.current || !catalog.data) return;
    ticked.current = true;
    setChecked(new Set(catalog.data.data.filter((m) => m.status === 'active').map((m) => m.id.toLowerCase())));
  }, [catalog.data]);
  const entries = (catalog.data?.data ?? []).filter((m) => m.status !== 'retired' || checked.has(m.id.toLowerCase()));
  const known = new Set(entries.map((m) => m.id.toLowerCase()));
  const stray = listed.filter((id) => !known.has(id.toLowerCase()));
  const toggle = (id, on) =>
    setChecked((current) => {
      const next = new Set(current);
      if (on) next.add(id.toLowerCase());
      else next.delete(id.toLowerCase());
      return next;
    });
  const check = (id, body) =>
    html`<label data-model=${id}><input type="checkbox" name="models" value=${id} data-multi="1" checked=${checked.has(id.toLowerCase())} onChange=${(e) => toggle(id, e.target.checked)} />${body}</label>`;
  return html`<fieldset class="span-all model-picker" data-platform=${platform}>
    <legend>${t('channels.col.models')}</legend>
    <p class="muted small">${t('channels.modelsPick', { platform: platformLabel })} <a href=${hrefFor('admin/models', { platform })}>${t('channels.modelsPage')}</a></p>
    <${ErrorNote} error=${catalog.error} onRetry=${catalog.reload} />
    ${
      catalog.loading && !catalog.data
        ? html`<${Loading} />`
        : entries.length || stray.length
          ? html`<div class="checks model-checks">
        ${entries.map((m) => check(m.id, html`<code>${m.id}</code>${m.label ? html`<span class="muted small">${m.label}</span>` : null}${m.status !== 'active' ? html`<${Badge} status=${m.status} />` : null}`))}
        ${stray.map((id) => check(id, html`<code>${id}</code><span class="error-text small">${t('channels.modelNotRouted')}</span>`))}
      </div>
      <div class="actions">
        <${Button} small kind="ghost" onClick=${() => setChecked(new Set([...checked, ...entries.filter((m) => m.status === 'active').map((m) => m.id.toLowerCase())]))}>${t('channels.modelsAll')}<//>
        <${Button} small kind="ghost" onClick=${() => setChecked(new Set())}>${t('channels.modelsNone')}<//>
      </div>`
          : html`<p class="muted">${t('channels.noModels', { platform: platformLabel })}</p>`
    }
  </fieldset>`;
}
