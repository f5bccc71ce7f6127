import { escapeHtml, htmlPage } from '../../../common/http/html-page';
import type { EmulatorReply, EmulatorRequest } from '../../simulator-shared/emulator-http';
import { type GammaProviderState, type GammaSession, H5_LIFETIME_MS } from './gamma-provider-state';

const STYLE = `body { font-family: system-ui, sans-serif; background: #eef1f5; color: #18202b; margin: 0; }
main { max-width: 26rem; margin: 3rem auto; padding: 2rem; background: #fff; border-radius: 16px; box-shadow: 0 4px 20px rgba(0,0,0,.08); text-align: center; }
.face { width: 9rem; height: 9rem; margin: 1rem auto 1.5rem; border-radius: 50%; border: 4px dashed #4f6bed; display: grid; place-items: center; }
.actions { display: flex; gap: 1rem; justify-content: center; margin-top: 1.5rem; }
a.button { display: inline-block; padding: .8rem 1.6rem; border-radius: 10px; color: #fff; text-decoration: none; font-weight: 600; }
a.pass { background: #1e7d3a; } a.fail { background: #b3261e; }
a.button:focus-visible { outline: 3px solid #18202b; outline-offset: 2px; }
small { color: #5b6675; }`;

const NO_STORE = { 'Cache-Control': 'no-store' };
const page = (status: number, title: string, body: string): EmulatorReply => ({
  status,
  html: htmlPage(title, STYLE, body),
  headers: NO_STORE,
});
const GONE = page(
  410,
  'Link expired',
  '<h1>This link has expired</h1><p>The liveness check link was already used or is older than about 120 seconds. Start a new verification.</p>',
);

/**
 * The liveness H5 page a session hands out (`/h5?token=`, below the control plane's mount): single
 * use, about 120 s. Pass and Fail are plain links (a CSP forbids inline scripts): each answers the
 * check and redirects the browser to the session's CallbackURL with the provider's query parameters.
 */
export class GammaH5Pages {
  constructor(
    private readonly state: GammaProviderState,
    private readonly now: () => number,
  ) {}

  /** Whether `req` (its path below the control plane's mount) is one of these pages. */
  static serves(req: EmulatorRequest): boolean {
    return req.method === 'GET' && ['/h5', '/h5/pass', '/h5/fail'].includes(req.path);
  }

  async handle(req: EmulatorRequest): Promise<EmulatorReply> {
    const token = req.query.get('token') ?? '';
    const session = await this.state.openSession(token);
    if (!session) return GONE;
    if (req.path !== '/h5') return this.finish(session, req.path === '/h5/pass');
    const left = Math.max(0, Math.ceil((session.createdAt + H5_LIFETIME_MS - this.now()) / 1000));
    // The links are absolute paths on this host, wherever the control plane is mounted.
    const mount = (req.wirePath ?? req.path).slice(0, -req.path.length);
    const link = (outcome: string) => `${mount}/h5/${outcome}?token=${encodeURIComponent(token)}`;
    return page(
      200,
      'Liveness check (simulator)',
      `<h1>Liveness check</h1>
<div class="face" aria-hidden="true"><svg width="84" height="84" viewBox="0 0 84 84"><circle cx="42" cy="30" r="16" fill="#4f6bed"/><path d="M12 78c2-18 15-28 30-28s28 10 30 28z" fill="#4f6bed"/></svg></div>
<p>This is the gateway's built-in simulator of the provider's liveness page. Choose the outcome of the check.</p>
<div class="actions">
<a class="button pass" href="${escapeHtml(link('pass'))}">Pass</a>
<a class="button fail" href="${escapeHtml(link('fail'))}">Fail</a>
</div>
<p><small>This page is valid for about ${left} more seconds and can be used once.</small></p>`,
    );
  }

  private async finish(session: GammaSession, passed: boolean): Promise<EmulatorReply> {
    await this.state.answer(session, passed);
    const target = new URL(session.callbackUrl);
    target.searchParams.set('bytedToken', session.token);
    target.searchParams.set('resultCode', passed ? '10000' : '10001');
    target.searchParams.set('algorithmBaseRespCode', passed ? '0' : '2003');
    target.searchParams.set('reqMeasureInfoValue', passed ? '0.97' : '0.12');
    target.searchParams.set('verify_type', 'real_time');
    return { status: 302, headers: { ...NO_STORE, Location: target.toString() } };
  }
}
