// Admin: users — create, top up, change group, enable/disable, approve verification; applications.
import { api } from '../api.js';
import { append, h, render as fill } from '../dom.js';
import { dateTime, quota } from '../format.js';
import { pagedList } from '../paged-list.js';
import { badge, fail, field, onSubmit, openDialog, pageHeader, section, table, toast } from '../ui.js';

const PAGE_SIZE = 20;

export function render(main) {
  const list = h('div');
  const { pagerBox, load } = pagedList({
    pageSize: PAGE_SIZE,
    fetchPage: (query) => api('/api/admin/users', { query }),
    show: (result) => fill(list, userTable(result.data)),
  });
  const applications = h('div');
  const createForm = onSubmit(
    h(
      'form',
      { class: 'card grid-form', id: 'create-user-form', 'aria-label': 'Create a user' },
      field('Username', { name: 'username', required: true, maxlength: 64, autocomplete: 'off' }),
      field('Password', { name: 'password', type: 'password', minlength: 8, autocomplete: 'new-password' }, 'For console sign-in; at least 8 characters.'),
      field('Group', { name: 'group', placeholder: 'default' }),
      field('Opening balance', { name: 'quota', type: 'number', min: 0, step: 1, inputmode: 'numeric', placeholder: '0' }),
      field('Requests per minute', { name: 'rpm', type: 'number', min: 0, step: 1, inputmode: 'numeric', placeholder: '0' }, '0 = unlimited.'),
      field('Role', { tag: 'select', name: 'role', options: [['user', 'Customer'], ['admin', 'Administrator']] }),
      h('div', {}, h('button', { type: 'submit' }, 'Create user')),
    ),
    async (values, form) => {
      const created = await api('/api/admin/users', {
        method: 'POST',
        body: { username: values.username, password: values.password || undefined, group: values.group || undefined, quota: values.quota ? Number(values.quota) : undefined, rpm: values.rpm ? Number(values.rpm) : undefined, role: values.role },
      });
      form.reset();
      toast(`User ${created.username} created.`);
      await load();
    },
  );
  append(main, [pageHeader('Users', 'Accounts, balances, groups and access.'), section('Create a user', createForm), section('All users', list, pagerBox), section('Verification applications', applications)]);

  function userTable(users) {
    return table(
      'Users',
      [
        { label: 'ID', cell: (u) => String(u.id), num: true },
        { label: 'Username', cell: (u) => u.username },
        { label: 'Group', cell: (u) => u.group },
        { label: 'Role', cell: (u) => u.role ?? 'user', class: 'hide-narrow' },
        { label: 'Status', cell: (u) => badge(u.status) },
        { label: 'Balance', cell: (u) => quota(u.quota), num: true, key: 'quota' },
        { label: 'Used', cell: (u) => quota(u.used_quota), num: true, class: 'hide-narrow' },
        { label: 'Verification', cell: (u) => (u.verification_enabled ? 'Approved' : 'Not enabled') },
        { label: 'Rate limit', cell: (u) => (u.rpm ? `${u.rpm}/min` : 'Unlimited'), class: 'hide-narrow' },
        { label: 'Actions', cell: (u) => h('button', { type: 'button', class: 'small', 'aria-label': `Manage ${u.username}`, onClick: () => manage(u) }, 'Manage') },
      ],
      users,
      { rowAttrs: (u) => ({ 'data-user-id': u.id, 'data-username': u.username }) },
    );
  }

  function manage(user) {
    const patch = async (body, message) => {
      const updated = await api(`/api/admin/users/${user.id}`, { method: 'PATCH', body });
      Object.assign(user, updated);
      toast(message);
      await load();
    };
    openDialog(`Manage ${user.username}`, (close) =>
      h(
        'div',
        {},
        h('p', {}, `Balance ${quota(user.quota)} · group ${user.group} · ${user.status}`),
        h(
          'section',
          {},
          h('h3', {}, 'Top up'),
          onSubmit(
            h('form', { class: 'inline', id: 'topup-form' }, field('Quota to add', { name: 'quota', type: 'number', min: 1, step: 1, required: true, inputmode: 'numeric' }), h('button', { type: 'submit' }, 'Top up')),
            async (values) => {
              const result = await api(`/api/admin/users/${user.id}/topup`, { method: 'POST', body: { quota: Number(values.quota) } });
              toast(`${user.username} now has ${quota(result.quota)}.`);
              close();
              await load();
            },
          ),
        ),
        h(
          'section',
          {},
          h('h3', {}, 'Group'),
          onSubmit(h('form', { class: 'inline' }, field('Group', { name: 'group', value: user.group, required: true }), h('button', { type: 'submit' }, 'Change group')), async (values) => {
            await patch({ group: values.group }, `${user.username} moved to group ${values.group}.`);
            close();
          }),
        ),
        h(
          'section',
          {},
          h('h3', {}, 'Rate limit'),
          onSubmit(
            h(
              'form',
              { class: 'inline', id: 'rpm-form' },
              field('Requests per minute', { name: 'rpm', type: 'number', min: 0, step: 1, required: true, inputmode: 'numeric', value: String(user.rpm ?? 0) }, 'On /v1/*, over every instance; 0 = unlimited.'),
              h('button', { type: 'submit' }, 'Set limit'),
            ),
            async (values) => {
              const rpm = Number(values.rpm);
              await patch({ rpm }, rpm ? `${user.username} may send ${rpm} requests a minute.` : `${user.username} has no rate limit.`);
              close();
            },
          ),
        ),
        h(
          'section',
          {},
          h('h3', {}, 'Access'),
          h(
            'div',
            { class: 'actions' },
            h('button', { type: 'button', class: user.status === 'active' ? 'danger' : '', onClick: () => patch({ status: user.status === 'active' ? 'disabled' : 'active' }, `${user.username} ${user.status === 'active' ? 'disabled' : 'enabled'}.`).then(close, fail) }, user.status === 'active' ? 'Disable account' : 'Enable account'),
            h('button', { type: 'button', class: 'secondary', onClick: () => patch({ verification_enabled: !user.verification_enabled }, `Verification ${user.verification_enabled ? 'revoked' : 'approved'} for ${user.username}.`).then(close, fail) }, user.verification_enabled ? 'Revoke verification' : 'Approve verification'),
          ),
        ),
        h(
          'section',
          {},
          h('h3', {}, 'Console password'),
          onSubmit(h('form', { class: 'inline' }, field('New password', { name: 'password', type: 'password', minlength: 8, required: true, autocomplete: 'new-password' }), h('button', { type: 'submit' }, 'Set password')), async (values) => {
            await patch({ password: values.password }, `Password set for ${user.username}.`);
            close();
          }),
        ),
        h('p', { class: 'muted' }, `Created ${dateTime(user.created_at)}`),
      ),
    );
  }

  async function loadApplications() {
    try {
      const result = await api('/api/admin/verification/applications', { query: { status: 'pending' } });
      fill(
        applications,
        table(
          'Pending applications',
          [
            { label: 'User', cell: (a) => a.username ?? String(a.user_id) },
            { label: 'Company', cell: (a) => a.company },
            { label: 'Use case', cell: (a) => a.use_case },
            { label: 'Contact', cell: (a) => a.contact, class: 'hide-narrow' },
            { label: 'Filed', cell: (a) => dateTime(a.created_at), class: 'hide-narrow' },
            {
              label: 'Decision',
              cell: (a) =>
                h(
                  'div',
                  { class: 'actions' },
                  h('button', { type: 'button', class: 'small', onClick: () => review(a, 'approve') }, 'Approve'),
                  h('button', { type: 'button', class: 'danger small', onClick: () => review(a, 'reject') }, 'Reject'),
                ),
            },
          ],
          result.data,
          { empty: 'No applications are waiting.' },
        ),
      );
    } catch (error) {
      fill(applications, h('p', { class: 'muted' }, error.status === 404 ? 'Applications are not available on this gateway.' : error.message));
    }
  }

  async function review(application, decision) {
    try {
      await api(`/api/admin/verification/applications/${application.id}/${decision}`, { method: 'POST', body: {} });
      toast(`Application from ${application.username ?? application.user_id} ${decision === 'approve' ? 'approved' : 'rejected'}.`);
      await Promise.all([load(), loadApplications()]);
    } catch (error) {
      fail(error);
    }
  }

  load();
  loadApplications();
}
