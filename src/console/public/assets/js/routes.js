// Every page of the console: path -> { title (an i18n key), icon (lucide name), role, group, view | legacy }.
// `view` is a Preact component (a ported page); `legacy` is an old `render(main, ctx)` module run
// through the LegacyPage adapter until it is ported. `role` absent: a signed-out page.
import * as adminUsers from './pages/admin-users.js';
import * as adminChannels from './pages/admin-channels.js';
import * as adminPrices from './pages/admin-prices.js';
import * as adminTasks from './pages/admin-tasks.js';
import * as adminLogs from './pages/admin-logs.js';
import * as adminWebhooks from './pages/admin-webhooks.js';
import { Overview } from './views/overview.js';
import { Tasks } from './views/tasks.js';
import { SignIn } from './views/sign-in.js';
import { Keys } from './views/keys.js';
import { Logs } from './views/logs.js';
import { Verification } from './views/verification.js';
import { Webhooks } from './views/webhooks.js';

export const ROUTES = {
  'sign-in': { title: 'nav.signIn', view: SignIn },
  'sign-up': { title: 'nav.signUp', view: SignIn, mode: 'sign-up' },
  overview: { title: 'nav.overview', icon: 'layout-dashboard', role: 'user', view: Overview },
  tasks: { title: 'nav.tasks', icon: 'clapperboard', role: 'user', view: Tasks },
  keys: { title: 'nav.keys', icon: 'key-round', role: 'user', view: Keys },
  logs: { title: 'nav.logs', icon: 'scroll-text', role: 'user', view: Logs },
  verification: { title: 'nav.verification', icon: 'scan-face', role: 'user', view: Verification },
  webhooks: { title: 'nav.webhooks', icon: 'webhook', role: 'user', view: Webhooks },
  'admin/users': { title: 'nav.adminUsers', icon: 'users', role: 'admin', legacy: adminUsers },
  'admin/channels': { title: 'nav.adminChannels', icon: 'server', role: 'admin', legacy: adminChannels },
  'admin/prices': { title: 'nav.adminPrices', icon: 'tags', role: 'admin', legacy: adminPrices },
  'admin/tasks': { title: 'nav.adminTasks', icon: 'list-video', role: 'admin', legacy: adminTasks },
  'admin/logs': { title: 'nav.adminLogs', icon: 'receipt', role: 'admin', legacy: adminLogs },
  'admin/webhooks': { title: 'nav.adminWebhooks', icon: 'siren', role: 'admin', legacy: adminWebhooks },
};

/** Where each role lands after signing in (and on an unknown path). */
export const HOME = { user: 'overview', admin: 'admin/users' };
