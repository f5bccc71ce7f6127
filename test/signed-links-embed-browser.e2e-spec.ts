import type { Browser } from 'playwright-core';
import { VideoArchiveJob } from '../src/storage/video-archive.job';
import { startGateway, TestGateway } from './support/gateway';
import { describeWithBrowser, launchBrowser, openPage } from './support/browser';
import { LoopbackServer, startLoopbackServer } from './support/http-server';

/**
 * docs/api.md: a signed `metadata.url` plays in a `<video>` and its thumbnail shows in an `<img>` on the
 * integrator's own site, another origin than the gateway's; the API's own answers keep their headers.
 */
describeWithBrowser('signed links embedded on another origin', () => {
  let gw: TestGateway;
  let browser: Browser;
  let site: LoopbackServer;
  let signed = '';

  beforeAll(async () => {
    [gw, browser] = await Promise.all([startGateway('sqlite', { SIMULATOR: 'on' }), launchBrowser()]);
    const customer = await gw.createCustomer({ quota: 5_000_000 });
    const auth = `Bearer ${customer.key}`;
    const id = (
      await gw.http
        .post('/v1/videos')
        .set('Authorization', auth)
        .send({ model: 'alpha/v6', prompt: 'a kite over dunes', duration: 5 })
        .expect(200)
    ).body.id as string;
    for (let i = 0; i < 3; i++) {
      gw.clock.advance(4_000);
      await gw.sync();
    }
    await gw.app.get(VideoArchiveJob).archiveDueVideos();
    const task = (await gw.http.get(`/v1/videos/${id}`).set('Authorization', auth).expect(200)).body;
    expect(task.status).toBe('completed');
    signed = task.metadata.url;
    expect(signed).toMatch(/\/content\?expires=\d+&signature=/);
    // The integrator's page, on another port: another origin.
    site = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<!doctype html><title>embed</title><video id="v" muted preload="auto" src="${signed}"></video>` +
          `<img id="t" alt="thumbnail" src="${signed}&variant=thumbnail">`,
      );
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await gw?.close();
  });

  it('plays the signed link in <video> and shows its thumbnail in <img>', async () => {
    const session = await openPage(browser, site.url, { prefix: 'embed' });
    const blocked: string[] = [];
    session.page.on('requestfailed', (request) => blocked.push(`${request.url()} ${request.failure()?.errorText}`));
    try {
      await session.page.goto(site.url);
      const played = await session.page.locator('#v').evaluate(async (element) => {
        const v = element as HTMLVideoElement;
        if (v.error) throw new Error(`video error ${v.error.code}`);
        if (v.readyState < 1)
          await new Promise((resolve, reject) => {
            v.addEventListener('loadedmetadata', resolve, { once: true });
            v.addEventListener('error', () => reject(new Error(`video error ${v.error?.code}`)), { once: true });
          });
        await v.play();
        const deadline = Date.now() + 30_000;
        while (v.currentTime === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        v.pause();
        return { duration: v.duration, playedTo: v.currentTime };
      });
      expect(played.duration).toBeGreaterThan(0);
      expect(played.playedTo).toBeGreaterThan(0);
      const width = await session.page.locator('#t').evaluate(async (element) => {
        const img = element as HTMLImageElement;
        if (!img.complete)
          await new Promise((resolve, reject) => {
            img.addEventListener('load', resolve, { once: true });
            img.addEventListener('error', () => reject(new Error('thumbnail error')), { once: true });
          });
        return img.naturalWidth;
      });
      expect(width).toBeGreaterThan(0);
      expect(blocked).toEqual([]);
    } finally {
      await session.close();
    }
  });

  it('opens only the signed media to other origins: the API keeps same-origin', async () => {
    const path = signed.slice(gw.url.length);
    const media = await gw.http.get(path).expect(200);
    expect(media.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const thumb = await gw.http.get(`${path}&variant=thumbnail`).expect(200);
    expect(thumb.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect((await gw.http.get('/v1/models')).headers['cross-origin-resource-policy']).toBe('same-origin');
    expect((await gw.http.get('/console')).headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});
