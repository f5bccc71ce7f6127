// Console entry point: session bootstrap, navigation and the hash router.
import { api, onUnauthorized, setSession } from './api.js';
import { h, render } from './dom.js';
import { toast } from './ui.js';
import * as signIn from './pages/sign-in.js';
import * as overview from './pages/overview.js';
import * as keys from './pages/keys.js';
import * as tasks from './pages/tasks.js';
import * as logs from './pages/logs.js';
import * as verification from './pages/verification.js';
import * as webhooks from './pages/webhooks.js';
import * as adminUsers from './pages/admin-users.js';
import * as adminChannels from './pages/admin-channels.js';
import * as adminPrices from './pages/admin-prices.js';
import * as adminTasks from './pages/admin-tasks.js';
import * as adminLogs from './pages/admin-logs.js';
import * as adminWebhooks from './pages/admin-webhooks.js';

/** path -> page; `role` says who may open it (absent: signed-out pages). */
const ROUTES = {
  'sign-in': { page: signIn, title: 'Sign in' },
  'sign-up': { page: signIn, title: 'Create an account', mode: 'sign-up' },
  overview: { page: overview, title: 'Overview', role: 'user' },
  keys: { page: keys, title: 'API keys', role: 'user' },
  tasks: { page: tasks, title: 'Tasks', role: 'user' },
  logs: { page: logs, title: 'Logs', role: 'user' },
  verification: { page: verification, title: 'Verification', role: 'user' },
  webhooks: { page: webhooks, title: 'Webhooks', role: 'user' },
  'admin/users': { page: adminUsers, title: 'Users', role: 'admin' },
  'admin/channels': { page: adminChannels, title: 'Channels', role: 'admin' },
  'admin/prices': { page: adminPrices, title: 'Prices', role: 'admin' },
  'admin/tasks': { page: adminTasks, title: 'All tasks', role: 'admin' },
  'admin/logs': { page: adminLogs, title: 'All logs', role: 'admin' },
  'admin/webhooks': { page: adminWebhooks, title: 'Failing webhooks', role: 'admin' },
};
const HOME = { user: 'overview', admin: 'admin/users' };

const state = { session: null, cleanup: null };
const main = document.getElementById('main');

export function navigate(path) {
  if (location.hash === `#/${path}`) route();
  else location.hash = `#/${path}`;
}

async function loadSession() {
  try {
    state.session = await api('/console/api/session', { quiet401: true });
  } catch {
    state.session = null;
  }
  setSession(state.session);
  renderChrome();
}

function renderChrome() {
  const nav = document.getElementById('nav');
  const account = document.getElementById('account');
  const role = state.session?.role;
  const items = Object.entries(ROUTES).filter(([, r]) => r.role && r.role === role);
  render(nav, items.length ? h('ul', {}, items.map(([path, r]) => h('li', {}, h('a', { href: `#/${path}`, 'data-path': path }, r.title)))) : null);
  render(
    account,
    state.session
      ? [
          h('span', { class: 'who' }, state.session.user ? `${state.session.user.username}${role === 'admin' ? ' (admin)' : ''}` : 'Administrator'),
          h('button', { type: 'button', class: 'button small', onClick: signOut }, 'Sign out'),
        ]
      : null,
  );
}

async function signOut() {
  try {
    await api('/console/api/session', { method: 'DELETE', quiet401: true });
  } catch {
    /* signed out either way */
  }
  state.session = null;
  setSession(null);
  renderChrome();
  navigate('sign-in');
}

function currentPath() {
  const path = location.hash.replace(/^#\/?/, '').split('?')[0];
  return path || (state.session ? HOME[state.session.role] : 'sign-in');
}

function route() {
  let path = currentPath();
  let entry = ROUTES[path];
  const role = state.session?.role;
  if (!entry || (entry.role && entry.role !== role) || (!entry.role && role)) {
    path = role ? HOME[role] : 'sign-in';
    entry = ROUTES[path];
    history.replaceState(null, '', `#/${path}`);
  }
  state.cleanup?.();
  state.cleanup = null;
  for (const link of document.querySelectorAll('#nav a')) {
    if (link.dataset.path === path) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  document.title = `${entry.title} · Video Gateway Console`;
  render(main);
  const ctx = {
    session: state.session,
    mode: entry.mode,
    navigate,
    /** After sign-in: adopt the new session and go to the role's home page. */
    signedIn(session) {
      state.session = session;
      setSession(session);
      renderChrome();
      navigate(HOME[session.role]);
    },
    refreshSession: loadSession,
  };
  const result = entry.page.render(main, ctx);
  Promise.resolve(result).then((cleanup) => {
    if (typeof cleanup === 'function') state.cleanup = cleanup;
    const heading = main.querySelector('h1');
    (heading ?? main).focus({ preventScroll: false });
  });
}

let rechecking = false;
onUnauthorized(async () => {
  if (!state.session || rechecking) return;
  // A 401 may only mean another tab signed in again while this request was on its way: ask first.
  rechecking = true;
  const before = state.session;
  await loadSession();
  rechecking = false;
  if (state.session && state.session.role === before.role && state.session.user?.id === before.user?.id) return route();
  if (state.session) return location.reload();
  toast('Your session ended. Please sign in again.', 'error');
  navigate('sign-in');
});

window.addEventListener('hashchange', route);
loadSession().then(route);
