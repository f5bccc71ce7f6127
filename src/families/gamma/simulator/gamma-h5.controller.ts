import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { escapeHtml, htmlPage } from '../../../common/http/html-page';
import { GammaSimulatorStore, H5_LIFETIME_MS } from './gamma-simulator.store';

const STYLE = `body { font-family: system-ui, sans-serif; background: #eef1f5; color: #18202b; margin: 0; }
main { max-width: 26rem; margin: 3rem auto; padding: 2rem; background: #fff; border-radius: 16px; box-shadow: 0 4px 20px rgba(0,0,0,.08); text-align: center; }
.face { width: 9rem; height: 9rem; margin: 1rem auto 1.5rem; border-radius: 50%; border: 4px dashed #4f6bed; display: grid; place-items: center; }
.actions { display: flex; gap: 1rem; justify-content: center; margin-top: 1.5rem; }
a.button { display: inline-block; padding: .8rem 1.6rem; border-radius: 10px; color: #fff; text-decoration: none; font-weight: 600; }
a.pass { background: #1e7d3a; } a.fail { background: #b3261e; }
a.button:focus-visible { outline: 3px solid #18202b; outline-offset: 2px; }
small { color: #5b6675; }`;

const page = (title: string, body: string) => htmlPage(title, STYLE, body);

/**
 * The simulated liveness H5 page (single use, about 120 s). Pass and Fail are plain links (the
 * CSP forbids inline scripts): each answers the check and redirects the browser to the session's
 * CallbackURL with the provider's query parameters.
 */
@ApiExcludeController()
@Controller('simulator/gamma-control/h5')
export class GammaH5Controller {
  constructor(private readonly store: GammaSimulatorStore) {}

  @Get()
  async show(@Query('token') token = '', @Res() res: Response): Promise<void> {
    const session = await this.store.openSession(token);
    res.setHeader('Cache-Control', 'no-store');
    if (!session) return this.gone(res);
    const left = Math.max(0, Math.ceil((session.createdAt + H5_LIFETIME_MS - this.store.now()) / 1000));
    const link = (outcome: string) => `/simulator/gamma-control/h5/${outcome}?token=${encodeURIComponent(token)}`;
    res.type('html').send(
      page(
        'Liveness check (simulator)',
        `<h1>Liveness check</h1>
<div class="face" aria-hidden="true"><svg width="84" height="84" viewBox="0 0 84 84"><circle cx="42" cy="30" r="16" fill="#4f6bed"/><path d="M12 78c2-18 15-28 30-28s28 10 30 28z" fill="#4f6bed"/></svg></div>
<p>This is the gateway's built-in simulator of the provider's liveness page. Choose the outcome of the check.</p>
<div class="actions">
<a class="button pass" href="${escapeHtml(link('pass'))}">Pass</a>
<a class="button fail" href="${escapeHtml(link('fail'))}">Fail</a>
</div>
<p><small>This page is valid for about ${left} more seconds and can be used once.</small></p>`,
      ),
    );
  }

  @Get('pass')
  async pass(@Query('token') token = '', @Res() res: Response): Promise<void> {
    await this.finish(token, true, res);
  }

  @Get('fail')
  async fail(@Query('token') token = '', @Res() res: Response): Promise<void> {
    await this.finish(token, false, res);
  }

  private async finish(token: string, passed: boolean, res: Response): Promise<void> {
    const session = await this.store.openSession(token);
    res.setHeader('Cache-Control', 'no-store');
    if (!session) return this.gone(res);
    await this.store.answer(session, passed);
    const target = new URL(session.callbackUrl);
    target.searchParams.set('bytedToken', token);
    target.searchParams.set('resultCode', passed ? '10000' : '10001');
    target.searchParams.set('algorithmBaseRespCode', passed ? '0' : '2003');
    target.searchParams.set('reqMeasureInfoValue', passed ? '0.97' : '0.12');
    target.searchParams.set('verify_type', 'real_time');
    res.redirect(302, target.toString());
  }

  private gone(res: Response): void {
    res
      .status(410)
      .type('html')
      .send(
        page(
          'Link expired',
          '<h1>This link has expired</h1><p>The liveness check link was already used or is older than about 120 seconds. Start a new verification.</p>',
        ),
      );
  }
}
