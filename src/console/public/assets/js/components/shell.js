// The frame around every signed-in page: sidebar navigation with icons, top bar with theme,
// language and account; on phones the sidebar slides in from a menu button.
import { html, useEffect, useState } from '../lib/html.js';
import { LANGUAGES, setLanguage, t, useLang } from '../lib/i18n.js';
import { signOut, useSession } from '../lib/session.js';
import { toggleTheme, useTheme } from '../lib/theme.js';
import { hrefFor, navigate, useRoute } from '../lib/url-state.js';
import { Icon } from './icon.js';
import { Button } from './ui.js';

/** The brand mark shown in the sidebar and on the sign-in page. */
export function Brand() {
  return html`<div class="brand"><span class="brand-mark" aria-hidden="true"><${Icon} name="clapperboard" size=${20} /></span><span>${t('app.name')}</span></div>`;
}

export function ThemeToggle() {
  const theme = useTheme();
  return html`<${Button} kind="ghost" iconOnly icon=${theme === 'dark' ? 'sun' : 'moon'} onClick=${toggleTheme} aria-pressed=${theme === 'dark' ? 'true' : 'false'} class="theme-toggle">${t(theme === 'dark' ? 'theme.toLight' : 'theme.toDark')}<//>`;
}

export function LanguageSwitch() {
  const lang = useLang();
  return html`<label class="lang-switch"><${Icon} name="languages" size=${16} /><span class="visually-hidden">${t('lang.label')}</span>
    <select value=${lang} onChange=${(e) => setLanguage(e.target.value)} aria-label=${t('lang.label')}>${LANGUAGES.map((l) => html`<option value=${l.code} lang=${l.code}>${l.label}</option>`)}</select>
  </label>`;
}

export function Shell({ routes, current, children }) {
  const session = useSession();
  const { path } = useRoute();
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [path]);
  const role = session?.role;
  const groups = [];
  for (const [routePath, route] of Object.entries(routes)) {
    if (route.role !== role || route.hidden) continue;
    const group = route.group ?? 'main';
    let entry = groups.find((g) => g.name === group);
    if (!entry) groups.push((entry = { name: group, items: [] }));
    entry.items.push([routePath, route]);
  }
  const who = session?.user ? session.user.username : t('account.administrator');
  return html`<div class=${`shell ${open ? 'nav-open' : ''}`}>
    <a class="skip-link" href="#main" onClick=${(e) => {
      e.preventDefault();
      document.getElementById('main')?.focus();
    }}>${t('shell.skip')}</a>
    <aside class="sidebar" id="sidebar">
      <div class="sidebar-head"><${Brand} /><${Button} kind="ghost" iconOnly icon="x" class="nav-close" onClick=${() => setOpen(false)}>${t('shell.closeMenu')}<//></div>
      <nav id="nav" aria-label=${t('shell.nav')}>
        ${groups.map(
          (g) => html`<div class="nav-group">
          ${g.name !== 'main' ? html`<div class="nav-group-title">${t(`nav.group.${g.name}`)}</div>` : null}
          <ul>${g.items.map(([routePath, route]) => html`<li><a href=${hrefFor(routePath)} data-path=${routePath} aria-current=${routePath === current ? 'page' : undefined}><${Icon} name=${route.icon} /><span>${t(route.title)}</span></a></li>`)}</ul>
        </div>`,
        )}
      </nav>
      <div class="sidebar-foot">
        <div class="who"><${Icon} name=${role === 'admin' ? 'shield' : 'user'} size=${16} /><span>${who}</span>${role === 'admin' && session?.user ? html`<span class="muted"> · ${t('account.admin')}</span>` : null}</div>
      </div>
    </aside>
    <div class="nav-scrim" onClick=${() => setOpen(false)}></div>
    <div class="workspace">
      <header class="topbar">
        <${Button} kind="ghost" iconOnly icon="menu" class="nav-open-button" aria-expanded=${open ? 'true' : 'false'} aria-controls="sidebar" onClick=${() => setOpen(true)}>${t('shell.openMenu')}<//>
        <div class="topbar-title">${t(routes[current]?.title ?? '')}</div>
        <div class="topbar-tools" id="account">
          <${LanguageSwitch} />
          <${ThemeToggle} />
          <${Button} kind="secondary" small icon="log-out" aria-label=${t('account.signOut')} onClick=${async () => {
            await signOut();
            navigate('sign-in');
          }}>${t('account.signOut')}<//>
        </div>
      </header>
      <main id="main" tabindex="-1">${children}</main>
    </div>
  </div>`;
}

/** Signed-out pages: centred, with the language and theme switches in the corner. */
export function PlainFrame({ children }) {
  return html`<div class="plain-frame">
    <header class="plain-top"><${Brand} /><div class="topbar-tools"><${LanguageSwitch} /><${ThemeToggle} /></div></header>
    <main id="main" tabindex="-1">${children}</main>
  </div>`;
}
