// Customer verification: apply for access, a liveness session, portrait groups with assets (uploaded
// by URL or file, their status polled live) and a worked example of using an asset:// id with gamma-2-0.
import { api } from '../api.js';
import { useConfirm } from '../components/confirm.js';
import { DataTable } from '../components/data-table.js';
import { useSubmit } from '../components/form.js';
import { Icon } from '../components/icon.js';
import { Badge, Button, Card, CopyButton, ErrorNote, Field, PageHeader, fail, toast } from '../components/ui.js';
import { compactDateTime, dateTime } from '../lib/format.js';
import { html, useEffect, useState } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';

const LAST_SESSION = 'console.verification.session';
const ASSET_POLL_MS = 2000;

export function Verification() {
  const own = useApi('/console/api/verification/applications');
  const latest = own.data?.data[0];
  const enabled = own.data?.verification_enabled;
  // A session that names a group (the provider confirmed the check) means the group list changed.
  const [groupsVersion, setGroupsVersion] = useState(0);
  const [exampleAsset, setExampleAsset] = useState(null);
  return html`<div class="verification-page">
    <${PageHeader} title=${t('verify.title')} intro=${t('verify.intro')} />
    <${CallbackNotice} />
    <${ErrorNote} error=${own.error} onRetry=${own.reload} />
    ${
      own.data
        ? html`
      <div class="panel status-line" id="verification-status" aria-live="polite">
        <strong>${t('verify.status')}</strong>
        ${enabled ? html`<${Badge} status="enabled" />` : latest?.status === 'pending' ? html`<${Badge} status="pending">${t('verify.pending')}<//>` : html`<${Badge} status="disabled">${t('verify.notEnabled')}<//>`}
        ${latest?.status === 'rejected' ? html`<p>${latest.review_note ? t('verify.rejectedNote', { note: latest.review_note }) : t('verify.rejected')}</p>` : null}
      </div>
      ${enabled ? html`<${Liveness} onGroup=${() => setGroupsVersion((n) => n + 1)} /><${Groups} key=${groupsVersion} onActiveAsset=${setExampleAsset} />` : latest?.status === 'pending' ? html`<p>${t('verify.filed', { at: dateTime(latest.created_at) })}</p>` : html`<${ApplyForm} onDone=${own.reload} />`}
      <${WorkedExample} assetId=${exampleAsset} />`
        : null
    }
  </div>`;
}

/** After the provider's page the browser returns here with the result in the query. */
function CallbackNotice() {
  const [result] = useState(() => {
    const params = new URLSearchParams(location.search);
    if (!params.has('resultCode')) return null;
    history.replaceState(null, '', `${location.pathname}${location.hash}`);
    return params.get('resultCode');
  });
  if (result === null) return null;
  return result === '10000'
    ? html`<p class="notice info" role="status"><${Icon} name="circle-check" />${t('verify.callbackPassed')}</p>`
    : html`<p class="notice danger" role="status"><${Icon} name="circle-alert" />${t('verify.callbackFailed', { code: result })}</p>`;
}

function ApplyForm({ onDone }) {
  const form = useSubmit(async (values) => {
    await api('/console/api/verification/applications', {
      method: 'POST',
      body: { company: values.company, contact: values.contact, use_case: values.use_case },
    });
    toast(t('verify.applied'));
    onDone();
  });
  return html`<${Card} title=${t('verify.apply')}>
    <form id="apply-form" class="grid-form" onSubmit=${form.onSubmit}>
      <${Field} label=${t('verify.company')} name="company" required maxlength="200" />
      <${Field} label=${t('verify.contact')} name="contact" required maxlength="200" help=${t('verify.contactHelp')} />
      <${Field} as="textarea" class="span-all" label=${t('verify.useCase')} name="use_case" required rows="4" maxlength="5000" />
      <div><${Button} type="submit" disabled=${form.busy}>${t('verify.submitApplication')}<//></div>
    </form>
  <//>`;
}

function Liveness({ onGroup }) {
  const [session, setSession] = useState(null);
  const [started, setStarted] = useState(null);
  const last = sessionStorage.getItem(LAST_SESSION);
  const check = async (id) => {
    try {
      const checked = await api(`/console/api/verification/sessions/${encodeURIComponent(id)}`);
      setSession(checked);
      if (checked.group_id) onGroup();
    } catch (error) {
      fail(error);
    }
  };
  useEffect(() => {
    if (last) check(last);
  }, []);
  const start = async () => {
    try {
      const created = await api('/console/api/verification/sessions', {
        method: 'POST',
        body: { callback_url: `${location.origin}/console/#/verification` },
      });
      sessionStorage.setItem(LAST_SESSION, created.session_id);
      setStarted(created);
    } catch (error) {
      fail(error);
    }
  };
  return html`<${Card} title=${t('verify.liveness')}>
    <p class="hint">${t('verify.livenessHint')}</p>
    <div class="actions">
      <${Button} id="start-session" icon="scan-face" onClick=${start}>${t('verify.startSession')}<//>
      ${last ? html`<${Button} kind="secondary" icon="refresh-cw" onClick=${() => check(sessionStorage.getItem(LAST_SESSION))}>${t('verify.checkLast')}<//>` : null}
    </div>
    <div aria-live="polite">
      ${started ? html`<p>${t('verify.sessionStarted', { id: started.session_id })} <a href=${started.h5_link} rel="noreferrer">${t('verify.openLiveness')}</a></p>` : null}
      ${session ? html`<p>${t('verify.session')} <code>${session.session_id}</code> <${Badge} status=${session.status} />${session.group_id ? html` · ${t('verify.group')} <code>${session.group_id}</code>` : null}</p>` : null}
    </div>
  <//>`;
}

function Groups({ onActiveAsset }) {
  const groups = useApi('/console/api/verification/groups');
  if (groups.error) return html`<${ErrorNote} error=${groups.error} onRetry=${groups.reload} />`;
  if (!groups.data) return null;
  if (!groups.data.data.length) return html`<${Card} title=${t('verify.groups')}><p class="muted">${t('verify.noGroup')}</p><//>`;
  return html`<div class="groups">${groups.data.data.map((group) => html`<${Group} key=${group.group_id} group=${group} onActiveAsset=${onActiveAsset} />`)}</div>`;
}

function Group({ group, onActiveAsset }) {
  const assets = useApi(
    `/console/api/verification/groups/${encodeURIComponent(group.group_id)}/assets`,
    {},
    { poll: (d) => (d?.data?.some((a) => a.status === 'processing') ? ASSET_POLL_MS : 0) },
  );
  const active = assets.data?.data.find((a) => a.status === 'active')?.asset_id ?? null;
  useEffect(() => {
    if (active) onActiveAsset(active);
  }, [active]);
  const [mode, setMode] = useState('url');
  const [confirmDialog, confirm] = useConfirm();
  const upload = useSubmit(async (values, form) => {
    const path = `/console/api/verification/groups/${encodeURIComponent(group.group_id)}/assets`;
    if (mode === 'file') {
      if (!values.file) throw new Error(t('verify.chooseFile'));
      const body = new FormData();
      body.append('file', values.file);
      if (values.name) body.append('name', values.name);
      await api(path, { method: 'POST', body });
    } else await api(path, { method: 'POST', body: { url: values.url, name: values.name || undefined } });
    form.reset();
    toast(t('verify.uploaded'));
    assets.reload();
  });
  const remove = async (asset) => {
    if (!(await confirm(t('verify.deleteQuestion', { name: asset.name }), t('verify.deleteAsset')))) return;
    try {
      await api(`/console/api/verification/assets/${encodeURIComponent(asset.asset_id)}`, { method: 'DELETE' });
      assets.reload();
    } catch (error) {
      fail(error);
    }
  };
  const columns = [
    { key: 'name', label: t('verify.col.name'), card: 'title', render: (a) => html`<strong>${a.name}</strong>` },
    {
      key: 'status',
      label: t('verify.col.status'),
      card: 'badge',
      render: (a) =>
        html`<${Badge} status=${a.status} />${a.error ? html`<div class="fail-reason">${a.error.message ?? a.error}</div>` : null}`,
    },
    {
      key: 'ref',
      label: t('verify.col.reference'),
      wide: true,
      render: (a) =>
        html`<span class="short-id"><code>asset://${a.asset_id}</code><${CopyButton} value=${`asset://${a.asset_id}`} label=${t('common.copyId', { id: `asset://${a.asset_id}` })} /></span>`,
    },
    { key: 'created', label: t('verify.col.created'), class: 'nowrap', render: (a) => compactDateTime(a.created_at) },
    {
      key: 'actions',
      label: t('verify.col.actions'),
      card: 'actions',
      render: (a) =>
        html`<${Button} kind="danger" small icon="trash-2" aria-label=${t('verify.deleteOf', { name: a.name })} onClick=${() => remove(a)}>${t('verify.delete')}<//>`,
    },
  ];
  return html`<section class="panel group-card" aria-labelledby=${`group-${group.group_id}`}>
    <h3 id=${`group-${group.group_id}`}>${t('verify.group')} <code>${group.group_id}</code></h3>
    <p class="muted">${t('verify.verifiedAt', { at: dateTime(group.created_at) })}</p>
    <form class="upload-form" aria-label=${t('verify.uploadTo', { group: group.group_id })} onSubmit=${upload.onSubmit}>
      <div class="segmented" role="group" aria-label=${t('verify.uploadBy')}>
        <button type="button" aria-pressed=${mode === 'url' ? 'true' : 'false'} onClick=${() => setMode('url')}><${Icon} name="link" size=${16} />${t('verify.byUrl')}</button>
        <button type="button" aria-pressed=${mode === 'file' ? 'true' : 'false'} onClick=${() => setMode('file')}><${Icon} name="file-up" size=${16} />${t('verify.byFile')}</button>
      </div>
      <div class="grid-form">
        ${
          mode === 'url'
            ? html`<${Field} key="url" label=${t('verify.portraitUrl')} name="url" type="url" required />`
            : html`<${Field} key="file" label=${t('verify.portraitFile')} name="file" type="file" accept="image/jpeg,image/png,image/webp" required help=${t('verify.fileHelp')} />`
        }
        <${Field} label=${t('verify.col.name')} name="name" maxlength="128" />
        <div><${Button} type="submit" icon="upload" disabled=${upload.busy}>${t('verify.upload')}<//></div>
      </div>
    </form>
    <${ErrorNote} error=${assets.error} onRetry=${assets.reload} />
    ${assets.data ? html`<${DataTable} caption=${t('verify.assetsOf', { group: group.group_id })} columns=${columns} rows=${assets.data.data} rowKey=${(a) => a.asset_id} rowProps=${(a) => ({ 'data-asset-id': a.asset_id, 'data-status': a.status })} empty=${t('verify.noAssets')} emptyIcon="image" />` : null}
    ${confirmDialog}
  </section>`;
}

/** How to use an asset in a task: the request, with the customer's first active asset filled in when there is one. */
function WorkedExample({ assetId }) {
  const example = `curl ${location.origin}/v1/video/generations \\
  -H "Authorization: Bearer $API_KEY" -H 'Content-Type: application/json' \\
  -d '{"model":"gamma-2-0","prompt":"Image 1 smiles and waves","duration":5,
       "metadata":{"resolution":"720p","content":[
         {"type":"image_url","image_url":{"url":"asset://${assetId ?? 'ASSET_ID'}"}}]}}'`;
  return html`<${Card} title=${t('verify.exampleTitle')} id="asset-example">
    <ol class="steps">
      <li>${t('verify.example1')}</li>
      <li>${t('verify.example2')}</li>
      <li>${t('verify.example3')}</li>
    </ol>
    <div class="code-block"><pre><code>${example}</code></pre><${CopyButton} value=${example} label=${t('verify.copyExample')} kind="secondary" withText /></div>
    <p class="hint">${assetId ? t('verify.exampleNoteFilled') : t('verify.exampleNote')}</p>
  <//>`;
}
