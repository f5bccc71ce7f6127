// Sign-in (customers and admin users by password, admins by token) and customer sign-up.
import { api } from '../api.js';
import { useSubmit } from '../components/form.js';
import { Button, Card, Field, PageHeader } from '../components/ui.js';
import { html } from '../lib/html.js';
import { t } from '../lib/i18n.js';

export function SignIn({ ctx, mode }) {
  if (mode === 'sign-up') return html`<${SignUp} ctx=${ctx} />`;
  const password = useSubmit(async (v) =>
    ctx.signedIn(
      await api('/console/api/session', { method: 'POST', body: { username: v.username, password: v.password }, quiet401: true }),
    ),
  );
  const token = useSubmit(async (v) =>
    ctx.signedIn(await api('/console/api/session', { method: 'POST', body: { admin_token: v.admin_token }, quiet401: true })),
  );
  return html`<div class="auth">
    <${PageHeader} title=${t('signIn.title')} intro=${t('signIn.intro')} />
    <div class="auth-grid">
      <${Card} title=${t('signIn.passwordTitle')}>
        <form id="sign-in-form" class="stack" onSubmit=${password.onSubmit}>
          <${Field} label=${t('signIn.username')} name="username" autocomplete="username" required />
          <${Field} label=${t('signIn.password')} name="password" type="password" autocomplete="current-password" required />
          <button type="submit" disabled=${password.busy}>${t('signIn.submit')}</button>
          <p class="hint">${t('signIn.noAccount')} <a href="#/sign-up">${t('signIn.createOne')}</a></p>
        </form>
      <//>
      <${Card} title=${t('signIn.tokenTitle')}>
        <form id="admin-token-form" class="stack" onSubmit=${token.onSubmit}>
          <${Field} label=${t('signIn.adminToken')} name="admin_token" type="password" autocomplete="off" required help=${t('signIn.adminTokenHelp')} />
          <button type="submit" disabled=${token.busy}>${t('signIn.tokenSubmit')}</button>
        </form>
      <//>
    </div>
  </div>`;
}

function SignUp({ ctx }) {
  const form = useSubmit(async (v) =>
    ctx.signedIn(
      await api('/console/api/signup', { method: 'POST', body: { username: v.username, password: v.password }, quiet401: true }),
    ),
  );
  return html`<div class="auth narrow">
    <${PageHeader} title=${t('signUp.title')} intro=${t('signUp.intro')} />
    <${Card}>
      <form class="stack" aria-label=${t('signUp.title')} onSubmit=${form.onSubmit}>
        <${Field} label=${t('signIn.username')} name="username" autocomplete="username" required pattern="[A-Za-z0-9_.@\\-]+" maxlength="64" help=${t('signUp.usernameHelp')} />
        <${Field} label=${t('signIn.password')} name="password" type="password" autocomplete="new-password" required minlength="8" help=${t('signUp.passwordHelp')} />
        <${Button} type="submit" disabled=${form.busy}>${t('signUp.submit')}<//>
        <p class="hint">${t('signUp.already')} <a href="#/sign-in">${t('nav.signIn')}</a></p>
      </form>
    <//>
  </div>`;
}
