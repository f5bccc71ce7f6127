/*
 * Console entry point: loads the messages and the session, then renders the shell and the page
 * the URL names (#/<path>?<query>).
 *
 * Writing a console page
 * ----------------------
 * A page is a Preact component in assets/js/views/<name>.js, written with htm (tagged templates,
 * no build step; htm never evals, so the CSP holds):
 *
 *   import { html } from '../lib/html.js';
 *   import { t } from '../lib/i18n.js';
 *   import { useApi } from '../lib/use-api.js';
 *   import { useUrlState } from '../lib/url-state.js';
 *   import { PageHeader, Badge, Card } from '../components/ui.js';
 *   import { DataTable } from '../components/data-table.js';
 *
 *   export function Things() {
 *     const [query, setQuery] = useUrlState({ q: '', sort: '-created_at', page: '1' });
 *     const { data, error, reload } = useApi('/console/api/things', query);
 *     return html`<${PageHeader} title=${t('things.title')} intro=${t('things.intro')} />
 *       <${Card}><${DataTable} caption=${t('things.title')} rows=${data?.data} rowKey=${(r) => r.id}
 *          sort=${query.sort} onSort=${(sort) => setQuery({ sort })}
 *          columns=${[{ key: 'name', label: t('things.name'), render: (r) => r.name, card: 'title' }]} /><//>`;
 *   }
 *
 * Then add it to routes.js: `things: { title: 'nav.things', icon: 'box', role: 'user', view: Things }`.
 * Rules:
 * - Every visible string is a key in assets/i18n/en.json AND zh-CN.json, shown with t('key', { params }).
 * - Filters, sorting, search and paging live in the URL through useUrlState (a view can be reloaded or shared).
 * - Lists use DataTable: give each column a `card` role (title, badge, media, meta, actions, hide)
 *   so it becomes a readable card on phones (≤ 640 px) instead of a table that overflows.
 * - Charts use components/chart.js (uPlot): one shared y-scale, a legend, an aria-label summary.
 * - Colours come from CSS variables in console.css (light and dark themes); icons are lucide names
 *   listed in assets/icons.json (<Icon name="copy" />).
 * - API calls go through api.js (session cookie, CSRF header); errors show with <ErrorNote> or fail().
 */
import { onUnauthorized } from './api.js';
import { Shell, PlainFrame } from './components/shell.js';
import { html, render, useEffect, useRef } from './lib/html.js';
import { initI18n, t, useLang } from './lib/i18n.js';
import { adoptSession, loadSession, sessionStore, useSession } from './lib/session.js';
import './lib/theme.js';
import { navigate, routeStore, useRoute } from './lib/url-state.js';
import { toast } from './lib/toast.js';
import { HOME, ROUTES } from './routes.js';

/** The route the URL names, or the role's home when it names none (or one this role may not open). */
function resolve(path, session) {
  const role = session?.role;
  const entry = ROUTES[path];
  if (entry && (entry.role ?? null) === (role ?? null)) return path;
  return role ? HOME[role] : 'sign-in';
}

function App() {
  const session = useSession();
  const route = useRoute();
  const lang = useLang();
  const path = resolve(route.path, session);
  const entry = ROUTES[path];

  useEffect(() => {
    if (path !== route.path) navigate(path, {}, { replace: true });
  }, [path, route.path]);
  useEffect(() => {
    document.title = `${t(entry.title)} · ${t('app.name')}`;
  }, [path, lang]);
  const firstPath = useRef(path);
  useEffect(() => {
    // After a page change (not the first page: its user may already be typing), focus the new
    // page's heading so screen readers announce it.
    if (path === firstPath.current) return;
    firstPath.current = null;
    const timer = setTimeout(() => {
      const active = document.activeElement;
      if (active && active !== document.body && active.matches('input, select, textarea')) return;
      /** @type {HTMLElement | null} */ (document.querySelector('main h1') ?? document.getElementById('main'))?.focus({
        preventScroll: true,
      });
    }, 60);
    return () => clearTimeout(timer);
  }, [path]);

  const ctx = {
    session,
    mode: entry.mode,
    navigate: (to) => navigate(to),
    signedIn(next) {
      adoptSession(next);
      navigate(HOME[next.role]);
    },
    refreshSession: loadSession,
  };
  // key: a new page mounts afresh.
  const page = html`<${entry.view} key=${path} ctx=${ctx} mode=${entry.mode} />`;
  if (!entry.role) return html`<${PlainFrame}>${page}<//>`;
  return html`<${Shell} routes=${ROUTES} current=${path}>${page}<//>`;
}

let rechecking = false;
onUnauthorized(async () => {
  const before = sessionStore.get();
  if (!before || rechecking) return;
  // A 401 may only mean another tab signed in again while this request was on its way: ask first.
  rechecking = true;
  const now = await loadSession();
  rechecking = false;
  if (now && now.role === before.role && now.user?.id === before.user?.id) return routeStore.set({ ...routeStore.get() });
  if (now) return location.reload();
  toast(t('session.ended'), 'error');
  navigate('sign-in');
});

await Promise.all([initI18n(), loadSession()]);
const root = document.getElementById('app');
root.replaceChildren();
render(html`<${App} />`, root);
