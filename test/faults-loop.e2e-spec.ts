import { addOpenAiModels } from './support/catalog-models';
import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { ChannelsService } from '../src/upstream/channels.service';
import { OpenAiEmulatorServer, startOpenAiEmulator } from './support/openai-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeEachDatabase } from './support/test-databases';

const QUOTA = 1_000_000;
const PER_SECOND = 100;
/** MAX_GATEWAY_HOPS's default. */
const MAX_HOPS = 3;
const LOOP_MESSAGE = 'upstream rejected the request: too_many_gateway_hops: the request has passed through too many gateways';

/**
 * A family O channel that leads back into the gateway (itself, or a gateway that points back):
 * X-Gateway-Hops ends the loop after MAX_GATEWAY_HOPS with one 400 to the client and no charge,
 * and the admin API refuses a base_url that is the gateway itself.
 */
describeEachDatabase('faults: a channel that loops back to the gateway', (kind) => {
  let gw: TestGateway;
  let fake: OpenAiEmulatorServer;
  let client: { userId: number; key: string };
  let loopAccount: { userId: number; key: string };

  beforeAll(async () => {
    fake = await startOpenAiEmulator();
    gw = await startGateway(kind);
    client = await gw.createCustomer({ quota: QUOTA });
    loopAccount = await gw.createCustomer({ quota: QUOTA });
    // Past the admin API's check, as a channel made before it (or through another address) would be.
    await addOpenAiModels(gw, ['loop-1', 'plain-1'], PER_SECOND);
    await gw.app.get(ChannelsService).create(
      {
        name: 'loop',
        platform: 'openai',
        baseUrl: `${gw.url}/v1`,
        apiKey: loopAccount.key,
        models: ['loop-1'],
        modelMapping: { 'loop-1': 'loop-1' },
      },
      true,
    );
    await gw.createChannel({ name: 'fake', platform: 'openai', base_url: `${fake.url}/v1`, api_key: fake.apiKey, models: ['plain-1'] });
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const ledgerTotal = async (userId: number, type: string) =>
    (await gw.admin.get(`/api/admin/logs?user_id=${userId}&type=${type}`).expect(200)).body.total as number;
  const taskRows = async (model: string) =>
    gw.app
      .get(DataSource)
      .query<Array<{ status: string; gateway_hops: number }>>(
        `SELECT status, gateway_hops FROM tasks WHERE model = '${model}' ORDER BY id`,
      );

  it('a submit to a channel pointing at the gateway itself ends at the hop limit: one 400, nothing charged, a bounded number of nested tasks', async () => {
    const before = [await gw.balance(client.userId), await gw.balance(loopAccount.userId)];
    const res = await gw.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${client.key}`)
      .send({ model: 'loop-1', prompt: 'round and round', seconds: '4' });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { error: { message: LOOP_MESSAGE, type: 'invalid_request_error', param: null, code: 'too_many_gateway_hops' } },
    });
    expect([await gw.balance(client.userId), await gw.balance(loopAccount.userId)]).toEqual(before);
    for (const userId of [client.userId, loopAccount.userId]) expect(await ledgerTotal(userId, 'consume')).toBe(0);
    // The client's submit and one per hop up to the limit; the next one was refused before it was recorded.
    const rows = await taskRows('loop-1');
    expect(rows.map((row) => [row.status, Number(row.gateway_hops)])).toEqual(
      Array.from({ length: MAX_HOPS + 1 }, (_, hops) => ['REJECTED', hops]),
    );
  });

  it('refuses a submit that has passed too many gateways on both surfaces, JSON and multipart, before any charge', async () => {
    const before = await gw.balance(client.userId);
    const auth = `Bearer ${client.key}`;
    const tooMany = String(MAX_HOPS + 1);
    const message = `request has passed through too many gateways (${tooMany}, at most ${MAX_HOPS}): a channel probably points back at a gateway of the chain`;
    const flat = await gw.http
      .post('/v1/videos')
      .set('Authorization', auth)
      .set('X-Gateway-Hops', tooMany)
      .send({ model: 'plain-1', prompt: 'p' })
      .expect(400);
    expect(flat.body).toEqual({
      error: { message, type: 'invalid_request_error', param: 'X-Gateway-Hops', code: 'too_many_gateway_hops' },
    });
    const multipart = await gw.http
      .post('/v1/videos')
      .set('Authorization', auth)
      .set('X-Gateway-Hops', tooMany)
      .field('model', 'plain-1')
      .field('prompt', 'p')
      .expect(400);
    expect(multipart.body).toEqual(flat.body);
    const unified = await gw.http
      .post('/v1/video/generations')
      .set('Authorization', auth)
      .set('X-Gateway-Hops', tooMany)
      .send({ model: 'beta-1.0-t2v', prompt: 'p' })
      .expect(400);
    expect(unified.body).toEqual({ code: 'too_many_gateway_hops', message, data: null });
    const garbage = await gw.http
      .post('/v1/videos')
      .set('Authorization', auth)
      .set('X-Gateway-Hops', 'many')
      .send({ model: 'plain-1', prompt: 'p' })
      .expect(400);
    expect(garbage.body.error).toMatchObject({ param: 'X-Gateway-Hops', code: 'invalid_request' });
    expect(await gw.balance(client.userId)).toEqual(before);
    expect(await ledgerTotal(client.userId, 'consume')).toBe(0);
    expect(fake.requests).toHaveLength(0);
  });

  it('tells the upstream how many gateways the request passed, on the submit and on every poll', async () => {
    const auth = `Bearer ${client.key}`;
    const chained = await gw.http
      .post('/v1/videos')
      .set('Authorization', auth)
      .set('X-Gateway-Hops', String(MAX_HOPS))
      .send({ model: 'plain-1', prompt: 'p', seconds: '4' })
      .expect(200);
    await gw.http.post('/v1/videos').set('Authorization', auth).send({ model: 'plain-1', prompt: 'p', seconds: '4' }).expect(200);
    expect(fake.requests.map((request) => [request.method, request.headers['x-gateway-hops']])).toEqual([
      ['POST', String(MAX_HOPS + 1)],
      ['POST', '1'],
    ]);
    gw.clock.advance(6_000);
    await gw.sync();
    const polls = fake.requests.filter((request) => request.method === 'GET');
    expect(polls.map((request) => request.headers['x-gateway-hops']).sort()).toEqual(['1', String(MAX_HOPS + 1)]);
    expect(chained.body).toMatchObject({ status: 'queued' });
  });

  it('admin API: refuses a base_url that is the gateway itself (PUBLIC_BASE_URL, or its port on loopback), on create and on edit', async () => {
    const port = new URL(gw.url).port;
    const body = { name: 'self', platform: 'openai', api_key: loopAccount.key, models: ['loop-1'] };
    for (const baseUrl of [`${gw.url}/v1`, `http://localhost:${port}/v1`, `http://[::1]:${port}/v1`]) {
      const res = await gw.admin.post('/api/admin/channels', { ...body, base_url: baseUrl });
      expect({ baseUrl, status: res.status, body: res.body }).toEqual({
        baseUrl,
        status: 400,
        body: {
          error: {
            message: 'base_url points at this gateway itself: every task would be sent back to it in a loop',
            type: 'invalid_request_error',
            param: 'base_url',
            code: 'invalid_request',
          },
        },
      });
    }
    const id = await gw.createChannel({ ...body, base_url: `${fake.url}/v1` });
    const edited = await gw.admin.patch(`/api/admin/channels/${id}`, { base_url: `${gw.url}/v1/` }).expect(400);
    expect(edited.body.error).toMatchObject({ param: 'base_url' });
    expect((await gw.admin.get(`/api/admin/channels/${id}`).expect(200)).body.base_url).toBe(`${fake.url}/v1`);
    // The embedded simulator is not the gateway's API: a channel may point at it.
    await gw.createChannel({ ...body, name: 'simulator', base_url: `${gw.url}/simulator/openai`, models: ['plain-1'] });
  });

  it('admin API: refuses a host name that resolves to loopback through /etc/hosts, on its port, though private hosts are allowed', async () => {
    expect(gw.config.mediaAllowPrivateHosts).toBe(true);
    const port = new URL(gw.url).port;
    const names = await loopbackAliases();
    expect(names.length).toBeGreaterThan(0);
    const body = { name: 'alias', platform: 'openai', api_key: loopAccount.key, models: ['loop-1'] };
    for (const name of [...names, ...names.map((alias) => alias.toUpperCase())]) {
      const baseUrl = `http://${name}:${port}/v1`;
      const res = await gw.admin.post('/api/admin/channels', { ...body, base_url: baseUrl });
      expect({ baseUrl, status: res.status, error: res.body.error }).toEqual({
        baseUrl,
        status: 400,
        error: expect.objectContaining({
          message: 'base_url points at this gateway itself: every task would be sent back to it in a loop',
          param: 'base_url',
        }),
      });
    }
    const id = await gw.createChannel({ ...body, base_url: `${fake.url}/v1` });
    const edited = await gw.admin.patch(`/api/admin/channels/${id}`, { base_url: `http://${names[0]}:${port}/v1` }).expect(400);
    expect(edited.body.error).toMatchObject({ param: 'base_url' });
    expect((await gw.admin.get(`/api/admin/channels/${id}`).expect(200)).body.base_url).toBe(`${fake.url}/v1`);
  });
});

/**
 * The names /etc/hosts gives a loopback address, other than `localhost` (which the check knows by
 * name), that the system resolves to loopback: on this machine its host name and `runsc`, in most
 * containers `ip6-localhost`.
 */
async function loopbackAliases(): Promise<string[]> {
  const names = readFileSync('/etc/hosts', 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim().split(/\s+/))
    .filter(([address]) => address && (address.startsWith('127.') || address === '::1'))
    .flatMap(([, ...aliases]) => aliases)
    .filter((name) => !/(^|\.)localhost$/i.test(name));
  const resolved = await Promise.all(
    [...new Set(names)].map(async (name) => {
      const addresses = await lookup(name, { all: true }).catch(() => []);
      return addresses.some((entry) => entry.address.startsWith('127.') || entry.address === '::1') ? name : null;
    }),
  );
  return resolved.filter((name): name is string => name !== null);
}

/** Two gateways whose channels point at each other: the same hop count ends the loop A -> B -> A -> B. */
describeEachDatabase('faults: two gateways chained in a loop', (kind) => {
  let a: TestGateway;
  let b: TestGateway;

  beforeAll(async () => {
    [a, b] = [await startGateway(kind), await startGateway(kind)];
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('ends at the hop limit with one 400 to the client; neither gateway charges anyone', async () => {
    const onA = await a.createCustomer({ quota: QUOTA });
    const onB = await b.createCustomer({ quota: QUOTA });
    const client = await a.createCustomer({ quota: QUOTA });
    for (const gw of [a, b]) await addOpenAiModels(gw, ['ring-1'], PER_SECOND);
    await a.createChannel({ name: 'to-b', platform: 'openai', base_url: `${b.url}/v1`, api_key: onB.key, models: ['ring-1'] });
    await b.createChannel({ name: 'to-a', platform: 'openai', base_url: `${a.url}/v1`, api_key: onA.key, models: ['ring-1'] });

    const res = await a.http
      .post('/v1/videos')
      .set('Authorization', `Bearer ${client.key}`)
      .send({ model: 'ring-1', prompt: 'p', seconds: '4' })
      .expect(400);
    expect(res.body.error).toMatchObject({ message: LOOP_MESSAGE, code: 'too_many_gateway_hops' });
    expect(await a.balance(client.userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    expect(await a.balance(onA.userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    expect(await b.balance(onB.userId)).toEqual({ quota: QUOTA, used_quota: 0 });
    // Hops 0 and 2 on A, 1 and 3 on B.
    const hopsOn = async (gw: TestGateway) =>
      (await gw.app.get(DataSource).query<Array<{ gateway_hops: number }>>('SELECT gateway_hops FROM tasks ORDER BY id')).map((row) =>
        Number(row.gateway_hops),
      );
    expect([await hopsOn(a), await hopsOn(b)]).toEqual([
      [0, 2],
      [1, 3],
    ]);
  });
});
