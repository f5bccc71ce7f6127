// Sign-in (customers and admin users by password, admins by token) and customer sign-up.
import { api } from '../api.js';
import { h, append } from '../dom.js';
import { field, onSubmit, pageHeader } from '../ui.js';

export function render(main, ctx) {
  if (ctx.mode === 'sign-up') return renderSignUp(main, ctx);
  const passwordForm = onSubmit(
    h(
      'form',
      { class: 'card', 'aria-labelledby': 'signin-password-title', id: 'sign-in-form' },
      h('h2', { id: 'signin-password-title' }, 'Customer or admin user'),
      field('Username', { name: 'username', autocomplete: 'username', required: true }),
      field('Password', { name: 'password', type: 'password', autocomplete: 'current-password', required: true }),
      h('button', { type: 'submit' }, 'Sign in'),
      h('p', { class: 'hint' }, 'No account yet? ', h('a', { href: '#/sign-up' }, 'Create one')),
    ),
    async (values) => ctx.signedIn(await api('/console/api/session', { method: 'POST', body: { username: values.username, password: values.password }, quiet401: true })),
  );
  const tokenForm = onSubmit(
    h(
      'form',
      { class: 'card', 'aria-labelledby': 'signin-token-title', id: 'admin-token-form' },
      h('h2', { id: 'signin-token-title' }, 'Administrator token'),
      field('Admin token', { name: 'admin_token', type: 'password', autocomplete: 'off', required: true }, 'The ADMIN_TOKEN the gateway was started with.'),
      h('button', { type: 'submit' }, 'Sign in as administrator'),
    ),
    async (values) => ctx.signedIn(await api('/console/api/session', { method: 'POST', body: { admin_token: values.admin_token }, quiet401: true })),
  );
  append(main, [pageHeader('Sign in', 'Manage API keys, tasks and balance — or, as an administrator, the whole gateway.'), h('div', { class: 'auth-grid' }, passwordForm, tokenForm)]);
}

function renderSignUp(main, ctx) {
  const form = onSubmit(
    h(
      'form',
      { class: 'card stack', 'aria-label': 'Create an account', style: 'max-width:28rem' },
      field('Username', { name: 'username', autocomplete: 'username', required: true, pattern: '[A-Za-z0-9_.@\\-]+', maxlength: 64 }, 'Letters, digits and _ . @ - only.'),
      field('Password', { name: 'password', type: 'password', autocomplete: 'new-password', required: true, minlength: 8 }, 'At least 8 characters.'),
      h('button', { type: 'submit' }, 'Create account'),
      h('p', { class: 'hint' }, 'Already registered? ', h('a', { href: '#/sign-in' }, 'Sign in')),
    ),
    async (values) => ctx.signedIn(await api('/console/api/signup', { method: 'POST', body: values, quiet401: true })),
  );
  append(main, [pageHeader('Create an account', 'New accounts start with a zero balance; an administrator tops it up.'), form]);
}
