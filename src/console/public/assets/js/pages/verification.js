// Customer verification: apply for access, start a liveness session, manage portrait assets.
import { api } from '../api.js';
import { append, h, render as fill } from '../dom.js';
import { dateTime } from '../format.js';
import { badge, confirmAction, fail, field, onSubmit, pageHeader, section, table, toast } from '../ui.js';

const LAST_SESSION = 'console.verification.session';

export function render(main) {
  const status = h('div', { 'aria-live': 'polite' });
  const body = h('div');
  append(main, [pageHeader('Verification', 'Real-person (liveness) verification lets you use portraits of a verified person with the gamma models.'), callbackNotice(), status, body]);

  async function load() {
    try {
      const own = await api('/console/api/verification/applications');
      const latest = own.data[0];
      fill(
        status,
        h(
          'div',
          { class: 'card', id: 'verification-status' },
          h('strong', {}, 'Status: '),
          own.verification_enabled ? badge('Enabled', 'ok') : latest?.status === 'pending' ? badge('Application pending', 'pending') : badge('Not enabled', 'disabled'),
          latest?.status === 'rejected' ? h('p', {}, `Your last application was rejected${latest.review_note ? `: ${latest.review_note}` : '.'}`) : null,
        ),
      );
      if (!own.verification_enabled) {
        fill(body, latest?.status === 'pending' ? h('p', {}, `Application filed ${dateTime(latest.created_at)}; an operator will review it.`) : applyForm(load));
        return;
      }
      fill(body, sessionSection(), h('div', { id: 'groups' }));
      await loadGroups(body.querySelector('#groups'));
    } catch (error) {
      fail(error);
    }
  }
  load();
}

/** After the provider's page the browser returns here with the result in the query. */
function callbackNotice() {
  const params = new URLSearchParams(location.search);
  if (!params.has('resultCode')) return null;
  const passed = params.get('resultCode') === '10000';
  history.replaceState(null, '', `${location.pathname}${location.hash}`);
  return h('p', { class: passed ? 'card' : 'notice', role: 'status' }, passed ? 'The liveness check reports success. Check the session below to get your portrait group.' : `The liveness check did not pass (result ${params.get('resultCode')}).`);
}

function applyForm(reload) {
  return section(
    'Apply for access',
    onSubmit(
      h(
        'form',
        { class: 'card grid-form', id: 'apply-form' },
        field('Company', { name: 'company', required: true, maxlength: 200 }),
        field('Contact', { name: 'contact', required: true, maxlength: 200 }, 'E-mail or phone for the reviewer.'),
        h('div', { class: 'field', style: 'grid-column: 1 / -1' }, h('label', { for: 'use-case' }, 'Use case'), h('textarea', { id: 'use-case', name: 'use_case', required: true, rows: 4, maxlength: 5000 })),
        h('div', {}, h('button', { type: 'submit' }, 'Submit application')),
      ),
      async (values) => {
        await api('/console/api/verification/applications', { method: 'POST', body: values });
        toast('Application submitted.');
        await reload();
      },
    ),
  );
}

function sessionSection() {
  const result = h('div', { 'aria-live': 'polite' });
  const check = async (sessionId) => {
    try {
      const session = await api(`/console/api/verification/sessions/${encodeURIComponent(sessionId)}`);
      fill(result, h('p', {}, 'Session ', h('code', {}, session.session_id), ': ', badge(session.status), session.group_id ? [' · group ', h('code', {}, session.group_id)] : null));
      if (session.group_id) document.dispatchEvent(new CustomEvent('verification:groups-changed'));
    } catch (error) {
      fail(error);
    }
  };
  const last = sessionStorage.getItem(LAST_SESSION);
  if (last) queueMicrotask(() => check(last));
  return section(
    'Liveness check',
    h('p', { class: 'hint' }, 'Start a session, then open the provider page on the device of the person being verified. It is valid for about two minutes.'),
    h(
      'div',
      { class: 'actions' },
      h(
        'button',
        {
          type: 'button',
          id: 'start-session',
          onClick: async () => {
            try {
              const created = await api('/console/api/verification/sessions', { method: 'POST', body: { callback_url: `${location.origin}/console/#/verification` } });
              sessionStorage.setItem(LAST_SESSION, created.session_id);
              fill(result, h('p', {}, 'Session ', h('code', {}, created.session_id), ' started. ', h('a', { href: created.h5_link, rel: 'noreferrer' }, 'Open the liveness check')));
            } catch (error) {
              fail(error);
            }
          },
        },
        'Start a session',
      ),
      last ? h('button', { type: 'button', class: 'secondary', onClick: () => check(sessionStorage.getItem(LAST_SESSION)) }, 'Check the last session') : null,
    ),
    result,
  );
}

async function loadGroups(container) {
  const reload = () => loadGroups(container);
  document.addEventListener('verification:groups-changed', reload, { once: true });
  try {
    const { data } = await api('/console/api/verification/groups');
    if (data.length === 0) {
      fill(container, section('Portrait groups', h('p', { class: 'muted' }, 'No verified group yet: complete a liveness check first.')));
      return;
    }
    fill(container, section('Portrait groups', ...data.map((group) => groupCard(group))));
  } catch (error) {
    fail(error);
  }
}

function groupCard(group) {
  const assets = h('div');
  const load = async () => {
    try {
      const { data } = await api(`/console/api/verification/groups/${encodeURIComponent(group.group_id)}/assets`);
      fill(
        assets,
        table(
          `Assets of ${group.group_id}`,
          [
            { label: 'Name', cell: (a) => a.name },
            { label: 'Reference', cell: (a) => h('code', {}, `asset://${a.asset_id}`) },
            { label: 'Status', cell: (a) => [badge(a.status), a.error ? h('div', { class: 'error-text' }, a.error.message) : null] },
            { label: 'Created', cell: (a) => dateTime(a.created_at), class: 'hide-narrow' },
            { label: 'Actions', cell: (a) => h('button', { type: 'button', class: 'danger small', 'aria-label': `Delete asset ${a.name}`, onClick: () => remove(a) }, 'Delete') },
          ],
          data,
          { empty: 'No assets in this group yet.' },
        ),
      );
    } catch (error) {
      fail(error);
    }
  };
  const remove = async (asset) => {
    if (!(await confirmAction(`Delete the asset “${asset.name}”? Tasks can no longer reference it.`, 'Delete asset'))) return;
    try {
      await api(`/console/api/verification/assets/${encodeURIComponent(asset.asset_id)}`, { method: 'DELETE' });
      await load();
    } catch (error) {
      fail(error);
    }
  };
  const upload = onSubmit(
    h('form', { class: 'grid-form', 'aria-label': `Upload a portrait to ${group.group_id}` }, field('Portrait URL', { name: 'url', type: 'url', required: true }), field('Name', { name: 'name', maxlength: 128 }), h('div', {}, h('button', { type: 'submit' }, 'Upload portrait'))),
    async (values, form) => {
      await api(`/console/api/verification/groups/${encodeURIComponent(group.group_id)}/assets`, { method: 'POST', body: { url: values.url, name: values.name || undefined } });
      form.reset();
      toast('Portrait uploaded; it is checked against the verified person.');
      await load();
    },
  );
  load();
  return h('div', { class: 'card' }, h('h3', { style: 'margin-top:0' }, 'Group ', h('code', {}, group.group_id)), h('p', { class: 'muted' }, `Verified ${dateTime(group.created_at)}`), upload, assets);
}
