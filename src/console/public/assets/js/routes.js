// Every page of the console: path -> { title (an i18n key), icon (lucide name), role, group, view }.
// `view` is a Preact component. `role` absent: a signed-out page.
import { AdminChannels } from './views/admin-channels.js';
import { AdminDashboard } from './views/admin-dashboard.js';
import { AdminLogs } from './views/admin-logs.js';
import { AdminModels } from './views/admin-models.js';
import { AdminPrices } from './views/admin-prices.js';
import { AdminRedemptionCodes } from './views/admin-redemption-codes.js';
import { AdminTasks } from './views/admin-tasks.js';
import { AdminUsage } from './views/admin-usage.js';
import { AdminUsers } from './views/admin-users.js';
import { AdminWebhooks } from './views/admin-webhooks.js';
import { Overview } from './views/overview.js';
import { Tasks } from './views/tasks.js';
import { SignIn } from './views/sign-in.js';
import { Keys } from './views/keys.js';
import { Logs } from './views/logs.js';
import { Models } from './views/models.js';
import { Usage } from './views/usage.js';
import { Verification } from './views/verification.js';
import { Webhooks } from './views/webhooks.js';

export const ROUTES = {
  'sign-in': { title: 'nav.signIn', view: SignIn },
  'sign-up': { title: 'nav.signUp', view: SignIn, mode: 'sign-up' },
  overview: { title: 'nav.overview', icon: 'layout-dashboard', role: 'user', view: Overview },
  tasks: { title: 'nav.tasks', icon: 'clapperboard', role: 'user', view: Tasks },
  models: { title: 'nav.models', icon: 'boxes', role: 'user', view: Models },
  keys: { title: 'nav.keys', icon: 'key-round', role: 'user', view: Keys },
  logs: { title: 'nav.logs', icon: 'scroll-text', role: 'user', view: Logs },
  usage: { title: 'nav.usage', icon: 'chart-column', role: 'user', view: Usage },
  verification: { title: 'nav.verification', icon: 'scan-face', role: 'user', view: Verification },
  webhooks: { title: 'nav.webhooks', icon: 'webhook', role: 'user', view: Webhooks },
  'admin/dashboard': { title: 'nav.adminDashboard', icon: 'layout-dashboard', role: 'admin', view: AdminDashboard },
  'admin/tasks': { title: 'nav.adminTasks', icon: 'list-video', role: 'admin', view: AdminTasks },
  'admin/users': { title: 'nav.adminUsers', icon: 'users', role: 'admin', view: AdminUsers },
  'admin/channels': { title: 'nav.adminChannels', icon: 'server', role: 'admin', view: AdminChannels },
  'admin/models': { title: 'nav.adminModels', icon: 'boxes', role: 'admin', view: AdminModels },
  'admin/prices': { title: 'nav.adminPrices', icon: 'tags', role: 'admin', view: AdminPrices },
  'admin/logs': { title: 'nav.adminLogs', icon: 'receipt', role: 'admin', view: AdminLogs },
  'admin/redemption-codes': { title: 'nav.adminRedemptionCodes', icon: 'ticket', role: 'admin', view: AdminRedemptionCodes },
  'admin/usage': { title: 'nav.adminUsage', icon: 'chart-column', role: 'admin', view: AdminUsage },
  'admin/webhooks': { title: 'nav.adminWebhooks', icon: 'siren', role: 'admin', view: AdminWebhooks },
};

/** Where each role lands after signing in (and on an unknown path). */
export const HOME = { user: 'overview', admin: 'admin/dashboard' };
