// Admin: users — create, top up, change group, rate limit, enable/disable, approve verification,
// set a console password, manage their API keys; and the verification applications waiting for a decision.
import { api } from '../api.js';
import { DataTable } from '../components/data-table.js';
import { useSubmit } from '../components/form.js';
import { Badge, Button, Card, Dialog, ErrorNote, Field, Loading, PageHeader, Pager, fail, toast } from '../components/ui.js';
import { compactDateTime, dateTime, money, quota } from '../lib/format.js';
import { html } from '../lib/html.js';
import { t } from '../lib/i18n.js';
import { useApi } from '../lib/use-api.js';
import { useUrlState } from '../lib/url-state.js';
import { AdminUserKeys } from './admin-user-keys.js';

const PAGE_SIZE = 20;

export function AdminUsers() {
  const [query, setQuery] = useUrlState({ page: '1', manage: '' });
  const page = Math.max(1, Number(query.page) || 1);
  const users = useApi('/api/admin/users', { page, page_size: PAGE_SIZE });
  const applications = useApi('/api/admin/verification/applications', { status: 'pending' });
  // The dialog open on a user is in the URL (?manage=<id>): a link or a reload opens it again.
  const managing = Number(query.manage) || null;
  const setManaging = (id) => setQuery({ page: query.page, manage: id === null ? '' : String(id) });
  const managedUser = managing === null ? null : (users.data?.data.find((u) => u.id === managing) ?? null);
  const reloadAll = () => {
    users.reload();
    applications.reload();
  };
  const create = useSubmit(async (values, form) => {
    const created = await api('/api/admin/users', {
      method: 'POST',
      body: {
        username: values.username,
        password: values.password || undefined,
        group: values.group || undefined,
        quota: values.quota ? Number(values.quota) : undefined,
        rpm: values.rpm ? Number(values.rpm) : undefined,
        role: values.role,
      },
    });
    form.reset();
    toast(t('users.created', { name: created.username }));
    users.reload();
  });

  const columns = [
    {
      key: 'user',
      label: t('users.col.user'),
      card: 'title',
      render: (u) =>
        html`<strong>${u.username}</strong> <span class="muted">#${u.id}</span>${u.role === 'admin' ? html` <${Badge} tone="info" icon="shield">${t('users.role.admin')}<//>` : null}`,
    },
    { key: 'status', label: t('users.col.status'), card: 'badge', render: (u) => html`<${Badge} status=${u.status} />` },
    { key: 'group', label: t('users.col.group'), render: (u) => html`<code>${u.group}</code>` },
    { key: 'quota', label: t('users.col.balance'), num: true, render: (u) => quota(u.quota) },
    {
      key: 'used',
      label: t('users.col.used'),
      num: true,
      render: (u) =>
        html`${quota(u.used_quota)}${money(u.used_quota) ? html`<div class="muted small">${money(u.used_quota)}</div>` : null}`,
    },
    {
      key: 'verification',
      label: t('users.col.verification'),
      render: (u) =>
        u.verification_enabled ? html`<${Badge} status="approved" />` : html`<span class="muted">${t('users.notEnabled')}</span>`,
    },
    {
      key: 'rpm',
      label: t('users.col.rpm'),
      num: true,
      render: (u) => (u.rpm ? t('users.perMinute', { n: u.rpm }) : html`<span class="muted">${t('users.unlimited')}</span>`),
    },
    {
      key: 'created',
      label: t('users.col.created'),
      class: 'nowrap',
      render: (u) => html`<span title=${dateTime(u.created_at)}>${compactDateTime(u.created_at)}</span>`,
    },
    {
      key: 'actions',
      label: t('users.col.actions'),
      card: 'actions',
      render: (u) =>
        html`<${Button} small kind="secondary" icon="user" aria-label=${t('users.manageOf', { name: u.username })} onClick=${() => setManaging(u.id)}>${t('users.manage')}<//>`,
    },
  ];

  return html`<div class="admin-users">
    <${PageHeader} title=${t('users.title')} intro=${t('users.intro')} />
    <${Card} title=${t('users.create')}>
      <form class="grid-form" id="create-user-form" aria-label=${t('users.create')} onSubmit=${create.onSubmit}>
        <${Field} label=${t('users.username')} name="username" required maxlength="64" autocomplete="off" />
        <${Field} label=${t('users.password')} name="password" type="password" minlength="8" autocomplete="new-password" help=${t('users.passwordHelp')} />
        <${Field} label=${t('users.group')} name="group" placeholder="default" />
        <${Field} label=${t('users.openingBalance')} name="quota" type="number" min="0" step="1" inputmode="numeric" placeholder="0" />
        <${Field} label=${t('users.rpm')} name="rpm" type="number" min="0" step="1" inputmode="numeric" placeholder="0" help=${t('users.rpmHelp')} />
        <${Field} as="select" label=${t('users.role')} name="role" options=${[
          ['user', t('users.role.user')],
          ['admin', t('users.role.admin')],
        ]} />
        <div><${Button} type="submit" icon="plus" disabled=${create.busy}>${t('users.createButton')}<//></div>
      </form>
    <//>
    <${Card} title=${t('users.all')} class="flush list-card">
      <${ErrorNote} error=${users.error} onRetry=${users.reload} />
      ${
        users.data
          ? html`<${DataTable} caption=${t('users.all')} columns=${columns} rows=${users.data.data} rowKey=${(u) => u.id}
        rowProps=${(u) => ({ 'data-user-id': u.id, 'data-username': u.username })} empty=${t('users.none')} emptyIcon="users" />`
          : users.loading
            ? html`<${Loading} />`
            : null
      }
    <//>
    ${users.data ? html`<${Pager} page=${page} pageSize=${PAGE_SIZE} total=${users.data.total} onPage=${(next) => setQuery({ page: String(next) })} />` : null}
    <${Applications} applications=${applications} onDecided=${reloadAll} />
    ${managedUser ? html`<${Manage} key=${managedUser.id} user=${managedUser} onClose=${() => setManaging(null)} onChanged=${users.reload} />` : null}
  </div>`;
}

function Manage({ user, onClose, onChanged }) {
  const done = () => {
    onChanged();
    onClose();
  };
  const patch = async (body, message) => {
    await api(`/api/admin/users/${user.id}`, { method: 'PATCH', body });
    toast(message);
    done();
  };
  const topup = useSubmit(async (values) => {
    const result = await api(`/api/admin/users/${user.id}/topup`, { method: 'POST', body: { quota: Number(values.quota) } });
    toast(t('users.toppedUp', { name: user.username, quota: quota(result.quota) }));
    done();
  });
  const group = useSubmit((values) =>
    patch({ group: values.group }, t('users.groupChanged', { name: user.username, group: values.group })),
  );
  const rpm = useSubmit((values) => {
    const n = Number(values.rpm);
    return patch({ rpm: n }, n ? t('users.rpmSet', { name: user.username, n }) : t('users.rpmCleared', { name: user.username }));
  });
  const password = useSubmit((values) => patch({ password: values.password }, t('users.passwordSet', { name: user.username })));
  const act = (body, message) => patch(body, message).catch(fail);
  const active = user.status === 'active';
  return html`<${Dialog} wide title=${t('users.manageOf', { name: user.username })} onClose=${onClose}>
    <div class="manage-user">
      <dl class="facts">
        <div><dt>${t('users.col.balance')}</dt><dd>${quota(user.quota)}${money(user.quota) ? html` <span class="muted">≈ ${money(user.quota)}</span>` : null}</dd></div>
        <div><dt>${t('users.col.group')}</dt><dd><code>${user.group}</code></dd></div>
        <div><dt>${t('users.col.status')}</dt><dd><${Badge} status=${user.status} /></dd></div>
        <div><dt>${t('users.col.created')}</dt><dd>${dateTime(user.created_at)}</dd></div>
      </dl>
      <section><h3>${t('users.topUp')}</h3>
        <form class="inline" id="topup-form" onSubmit=${topup.onSubmit}>
          <${Field} label=${t('users.quotaToAdd')} name="quota" type="number" min="1" step="1" required inputmode="numeric" />
          <${Button} type="submit" icon="plus" disabled=${topup.busy}>${t('users.topUp')}<//>
        </form>
      </section>
      <section><h3>${t('users.group')}</h3>
        <form class="inline" onSubmit=${group.onSubmit}>
          <${Field} label=${t('users.group')} name="group" value=${user.group} required />
          <${Button} type="submit" disabled=${group.busy}>${t('users.changeGroup')}<//>
        </form>
      </section>
      <section><h3>${t('users.rateLimit')}</h3>
        <form class="inline" id="rpm-form" onSubmit=${rpm.onSubmit}>
          <${Field} label=${t('users.rpm')} name="rpm" type="number" min="0" step="1" required inputmode="numeric" value=${String(user.rpm ?? 0)} help=${t('users.rpmLimitHelp')} />
          <${Button} type="submit" disabled=${rpm.busy}>${t('users.setLimit')}<//>
        </form>
      </section>
      <section><h3>${t('users.access')}</h3>
        <div class="actions">
          <${Button} kind=${active ? 'danger' : 'primary'} icon=${active ? 'ban' : 'circle-check'} onClick=${() => act({ status: active ? 'disabled' : 'active' }, t(active ? 'users.disabled' : 'users.enabled', { name: user.username }))}>${t(active ? 'users.disable' : 'users.enable')}<//>
          <${Button} kind="secondary" icon="badge-check" onClick=${() => act({ verification_enabled: !user.verification_enabled }, t(user.verification_enabled ? 'users.verificationRevoked' : 'users.verificationApproved', { name: user.username }))}>${t(user.verification_enabled ? 'users.revokeVerification' : 'users.approveVerification')}<//>
        </div>
      </section>
      <section><h3>${t('users.consolePassword')}</h3>
        <form class="inline" onSubmit=${password.onSubmit}>
          <${Field} label=${t('users.newPassword')} name="password" type="password" minlength="8" required autocomplete="new-password" />
          <${Button} type="submit" disabled=${password.busy}>${t('users.setPassword')}<//>
        </form>
      </section>
      <${AdminUserKeys} user=${user} />
    </div>
  <//>`;
}

function Applications({ applications, onDecided }) {
  const review = async (a, decision) => {
    try {
      await api(`/api/admin/verification/applications/${a.id}/${decision}`, { method: 'POST', body: {} });
      toast(t(decision === 'approve' ? 'users.appApproved' : 'users.appRejected', { name: a.username ?? a.user_id }));
      onDecided();
    } catch (error) {
      fail(error);
    }
  };
  const columns = [
    { key: 'user', label: t('users.col.user'), card: 'title', render: (a) => html`<strong>${a.username ?? `#${a.user_id}`}</strong>` },
    { key: 'company', label: t('users.col.company'), render: (a) => a.company },
    { key: 'use_case', label: t('users.col.useCase'), wide: true, render: (a) => html`<span class="use-case">${a.use_case}</span>` },
    { key: 'contact', label: t('users.col.contact'), render: (a) => a.contact },
    { key: 'filed', label: t('users.col.filed'), class: 'nowrap', render: (a) => compactDateTime(a.created_at) },
    {
      key: 'decision',
      label: t('users.col.decision'),
      card: 'actions',
      render: (a) => html`<div class="actions nowrap">
        <${Button} small icon="check" onClick=${() => review(a, 'approve')} aria-label=${t('users.approveOf', { name: a.username ?? a.user_id })}>${t('users.approve')}<//>
        <${Button} small kind="danger" icon="x" onClick=${() => review(a, 'reject')} aria-label=${t('users.rejectOf', { name: a.username ?? a.user_id })}>${t('users.reject')}<//>
      </div>`,
    },
  ];
  const missing = applications.error?.status === 404;
  return html`<${Card} title=${t('users.applications')} class="flush list-card" id="applications">
    ${missing ? html`<p class="muted card-intro">${t('users.applicationsMissing')}</p>` : html`<${ErrorNote} error=${applications.error} onRetry=${applications.reload} />`}
    ${
      applications.data
        ? html`<${DataTable} caption=${t('users.applications')} columns=${columns} rows=${applications.data.data} rowKey=${(a) => a.id}
      rowProps=${(a) => ({ 'data-application-id': a.id })} empty=${t('users.noApplications')} emptyIcon="badge-check" />`
        : null
    }
  <//>`;
}
