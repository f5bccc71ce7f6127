import type { Browser } from 'playwright-core';
import { signRequest } from '../src/families/gamma/control-plane/gamma-request-signer';
import { describeWithBrowser, launchBrowser, openPage } from './support/browser';
import { approvedCustomer } from './support/verification-customers';
import { startGateway, TestGateway } from './support/gateway';
import { LoopbackServer, startLoopbackServer } from './support/http-server';
import { describeOnSqlite } from './support/test-databases';

/** The whole verification flow against the embedded simulator (SIMULATOR=on), no fake upstream. */
describeOnSqlite('verification with the embedded simulator', (kind) => {
  let gw: TestGateway;
  let business: LoopbackServer;

  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on' });
    // The business server the browser finally lands on.
    business = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Back at the business</title><h1>Thanks</h1>');
    });
  });
  afterAll(async () => {
    await gw?.close();
    await business?.close();
  });

  const follow = (url: string) => {
    const target = new URL(url);
    return gw.http.get(`${target.pathname}${target.search}`);
  };

  it('passes a liveness check on the H5 page, confirms the group, activates an asset and generates a video with it', async () => {
    const { key } = await approvedCustomer(gw, { quota: 100_000 });
    const auth = `Bearer ${key}`;
    const created = await gw.http
      .post('/v1/verification/sessions')
      .set('Authorization', auth)
      .send({ callback_url: `${business.url}/done?order=7` })
      .expect(201);
    expect(created.body.h5_link).toBe(`${gw.url}/simulator/gamma-control/h5?token=${created.body.provider_token}`);

    const h5 = await follow(created.body.h5_link).expect(200);
    expect(h5.headers['content-type']).toMatch(/text\/html/);
    expect(h5.text).not.toMatch(/<script/i);
    const passHref = /href="([^"]*\/h5\/pass[^"]*)"/.exec(h5.text)![1].replace(/&amp;/g, '&');
    const provider = await gw.http.get(passHref).expect(302);
    const toGateway = new URL(provider.headers.location);
    expect(`${toGateway.origin}${toGateway.pathname}`).toBe(`${gw.url}/v1/callback`);
    expect(Object.fromEntries(toGateway.searchParams)).toEqual({
      bytedToken: created.body.provider_token,
      resultCode: '10000',
      algorithmBaseRespCode: '0',
      reqMeasureInfoValue: '0.97',
      verify_type: 'real_time',
    });
    const back = await follow(provider.headers.location).expect(302);
    const toBusiness = new URL(back.headers.location);
    expect(`${toBusiness.origin}${toBusiness.pathname}`).toBe(`${business.url}/done`);
    expect(Object.fromEntries(toBusiness.searchParams)).toEqual({
      order: '7',
      providerToken: created.body.provider_token,
      resultCode: '10000',
      algorithmBaseRespCode: '0',
      reqMeasureInfoValue: '0.97',
      verify_type: 'real_time',
    });
    // The H5 page is single use.
    await follow(created.body.h5_link).expect(410);

    const session = await gw.http.get(`/v1/verification/sessions/${created.body.session_id}`).set('Authorization', auth).expect(200);
    expect(session.body).toMatchObject({ status: 'succeeded', group_id: expect.stringMatching(/^group-/) });
    const groupId = session.body.group_id;

    const asset = await gw.http
      .post(`/v1/verification/groups/${groupId}/assets`)
      .set('Authorization', auth)
      .send({ url: 'https://cdn.example/me.jpg' })
      .expect(201);
    expect(asset.body.status).toBe('processing');
    gw.clock.advance(2_500);
    expect((await gw.http.get(`/v1/verification/assets/${asset.body.asset_id}`).set('Authorization', auth).expect(200)).body.status).toBe(
      'active',
    );

    const task = await gw.http
      .post('/v1/video/generations')
      .set('Authorization', auth)
      .send({
        model: 'gamma-2-0',
        prompt: 'Image 1 smiles',
        duration: 5,
        metadata: { content: [{ type: 'image_url', image_url: { url: `asset://${asset.body.asset_id}` } }], resolution: '720p' },
      })
      .expect(200);
    gw.clock.advance(9_000);
    await gw.sync();
    const done = await gw.http.get(`/v1/video/generations/${task.body.id}`).set('Authorization', auth).expect(200);
    // The gateway's own signed link, in the raw upstream record too: the simulator's link never reaches a client.
    expect(done.body.data).toMatchObject({
      status: 'SUCCESS',
      result_url: expect.stringMatching(new RegExp(`^${gw.url}/v1/videos/${task.body.id}/content\\?expires=\\d+&signature=[0-9a-f]{64}$`)),
    });
    expect(JSON.stringify(done.body.data)).not.toContain('/simulator/gamma/videos/');
    const video = await gw.http.get(`/v1/videos/${task.body.id}/content`).set('Authorization', auth).expect(200);
    expect(video.headers['content-type']).toBe('video/mp4');
  });

  it('reports a failed check as failed without a group, and refuses an unsigned or badly signed control call', async () => {
    const { key } = await approvedCustomer(gw);
    const auth = `Bearer ${key}`;
    const created = await gw.http
      .post('/v1/verification/sessions')
      .set('Authorization', auth)
      .send({ callback_url: `${business.url}/done` })
      .expect(201);
    const h5 = await follow(created.body.h5_link).expect(200);
    const failHref = /href="([^"]*\/h5\/fail[^"]*)"/.exec(h5.text)![1].replace(/&amp;/g, '&');
    const provider = await gw.http.get(failHref).expect(302);
    const back = await follow(provider.headers.location).expect(302);
    expect(new URL(back.headers.location).searchParams.get('resultCode')).toBe('10001');
    expect(
      (await gw.http.get(`/v1/verification/sessions/${created.body.session_id}`).set('Authorization', auth).expect(200)).body,
    ).toMatchObject({
      status: 'failed',
      group_id: null,
    });

    const body = JSON.stringify({ ProjectName: 'default', CallbackURL: 'https://biz.example/cb' });
    const path = '/simulator/gamma-control/';
    const query = new URLSearchParams({ Action: 'CreateVisualValidateSession', Version: '2024-01-01' });
    const unsigned = await gw.http.post(`${path}?${query}`).set('Content-Type', 'application/json').send(body).expect(401);
    expect(unsigned.body.ResponseMetadata.Error.Code).toBe('SignatureDoesNotMatch');
    const host = new URL(gw.url).host;
    const signed = signRequest({
      method: 'POST',
      path,
      query,
      host,
      contentType: 'application/json',
      body,
      accessKey: 'SIMULATORACCESSKEY',
      secretKey: 'wrong',
      region: 'cn-beijing',
      date: new Date(gw.clock.now()),
    });
    const wrong = await gw.http.post(`${path}?${query}`).set(signed.headers).send(body).expect(401);
    expect(wrong.body.ResponseMetadata).toMatchObject({ Action: 'CreateVisualValidateSession', Error: { Code: 'SignatureDoesNotMatch' } });
  });

  describeWithBrowser('in a real browser', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    afterAll(async () => browser?.close());

    it('clicks Pass on the H5 page and lands on the business callback with the result', async () => {
      const { key } = await approvedCustomer(gw);
      const created = await gw.http
        .post('/v1/verification/sessions')
        .set('Authorization', `Bearer ${key}`)
        .send({ callback_url: `${business.url}/landing?ref=abc` })
        .expect(201);
      const session = await openPage(browser, gw.url, { prefix: `verification-${kind}` });
      try {
        await session.page.goto(created.body.h5_link);
        await session.screenshot('h5-page');
        await session.page.getByRole('link', { name: 'Pass' }).click();
        await session.page.waitForURL((url) => url.pathname === '/landing');
        const landed = new URL(session.page.url());
        expect(Object.fromEntries(landed.searchParams)).toMatchObject({
          ref: 'abc',
          providerToken: created.body.provider_token,
          resultCode: '10000',
          verify_type: 'real_time',
        });
        expect(session.errors).toEqual([]);
      } finally {
        await session.close();
      }
      const read = await gw.http
        .get(`/v1/verification/sessions/${created.body.session_id}`)
        .set('Authorization', `Bearer ${key}`)
        .expect(200);
      expect(read.body.status).toBe('succeeded');
    });
  });
});
