import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

const ONE_RULE = 'seconds must be a whole number of seconds, 1 or more';

/**
 * OpenAI's `seconds` on both surfaces: one rule and one message whichever family serves the model,
 * always naming `seconds` (the field the client sent) and the model as the client named it. Every
 * refusal is a 400 before any charge; the OpenAI-style text "5" is taken on the unified surface too.
 */
describeOnSqlite('submit: seconds on both surfaces', (kind) => {
  let gw: TestGateway;
  let customer: { userId: number; key: string };
  const QUOTA = 1_000_000;

  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on' });
    customer = await gw.createCustomer({ quota: QUOTA });
  });
  afterAll(async () => gw?.close());

  const post = (path: string, body: object) => gw.http.post(path).set('Authorization', `Bearer ${customer.key}`).send(body);
  const flat = (body: object) => post('/v1/videos', body);
  const unified = (body: object) => post('/v1/video/generations', body);

  /** Refused on both surfaces with the same message; the flat surface names the param, the unified one starts its message with it. */
  async function refusedOnBoth(body: object, message: string): Promise<void> {
    const before = await gw.balance(customer.userId);
    expect((await flat(body).expect(400)).body).toEqual({
      error: { message, type: 'invalid_request_error', param: 'seconds', code: 'invalid_request' },
    });
    expect((await unified(body).expect(400)).body).toEqual({ code: 'invalid_request', message, data: null });
    expect(await gw.balance(customer.userId)).toEqual(before);
  }

  it.each([
    ['"-5"', '-5'],
    ['"0"', '0'],
    ['-5 (a number), never naming duration', -5],
  ])('seconds %s is one rule, one message, naming seconds', async (_name, seconds) => {
    await refusedOnBoth({ model: 'kling-v2-5-turbo', prompt: 'p', seconds }, ONE_RULE);
    await refusedOnBoth({ model: 'MiniMax-Hailuo-2.3', prompt: 'p', seconds }, ONE_RULE);
  });

  it('a length the model does not make names seconds and the model as sent, on both surfaces', async () => {
    await refusedOnBoth({ model: 'kling-v2-5-turbo', prompt: 'p', seconds: '7' }, 'seconds must be 5 or 10 seconds for kling-v2-5-turbo');
    // Family B's own wording (the interface's), about the field the client sent.
    await refusedOnBoth({ model: 'beta-1.0-t2v', prompt: 'p', seconds: 2 }, 'seconds must be an integer between 3 and 15 (seconds)');
  });

  it('takes the OpenAI-style text "5" on the unified surface as on the flat one, charged alike', async () => {
    const start = await gw.balance(customer.userId);
    const viaFlat = await flat({ model: 'kling-v2-5-turbo', prompt: 'a fox', seconds: '5' }).expect(200);
    const afterFlat = await gw.balance(customer.userId);
    const viaUnified = await unified({ model: 'kling-v2-5-turbo', prompt: 'a fox', seconds: '5' }).expect(200);
    const afterUnified = await gw.balance(customer.userId);
    expect(viaFlat.body.status).toBe('queued');
    expect(viaUnified.body.status).toBe('queued');
    expect(start.quota - afterFlat.quota).toBeGreaterThan(0);
    expect(afterFlat.quota - afterUnified.quota).toBe(start.quota - afterFlat.quota);
    // Ten seconds cost twice five: the length reached pricing from the text.
    const ten = await unified({ model: 'kling-v2-5-turbo', prompt: 'a fox', seconds: '10' }).expect(200);
    expect(ten.body.status).toBe('queued');
    expect(afterUnified.quota - (await gw.balance(customer.userId)).quota).toBe(2 * (start.quota - afterFlat.quota));
  });

  it('family A names the model as the client did, not the upstream version', async () => {
    const before = await gw.balance(customer.userId);
    const res = await flat({ model: 'alpha/v5', prompt: 'p', seconds: '7' }).expect(400);
    expect(res.body.error).toEqual({
      message: 'seconds must be 5 or 8 seconds for alpha/v5',
      type: 'invalid_request_error',
      param: 'seconds',
      code: 'invalid_request',
    });
    expect((await flat({ model: 'alpha/v5', prompt: 'p', seconds: '-5' }).expect(400)).body.error).toMatchObject({
      message: ONE_RULE,
      param: 'seconds',
    });
    expect(await gw.balance(customer.userId)).toEqual(before);
  });

  it('a model by Sora 2 rules (the simulator model) refuses "7" before any charge, naming seconds', async () => {
    const before = await gw.balance(customer.userId);
    const res = await flat({ model: 'openai-simulator', prompt: 'p', seconds: '7' }).expect(400);
    expect(res.body.error).toEqual({
      message: 'seconds must be 4, 8 or 12 seconds for openai-simulator',
      type: 'invalid_request_error',
      param: 'seconds',
      code: 'invalid_request',
    });
    expect((await flat({ model: 'openai-simulator', prompt: 'p', seconds: '0' }).expect(400)).body.error).toMatchObject({
      message: ONE_RULE,
      param: 'seconds',
    });
    expect(await gw.balance(customer.userId)).toEqual(before);
  });
});
