import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

const openai = (message: string, param: string) => ({ error: { message, type: 'invalid_request_error', param, code: 'invalid_request' } });
const wrapper = (message: string) => ({ code: 'invalid_request', message, data: null });

/** One validation mechanism (the families' request classes): wrong JSON types are 400s, never coerced; multipart's decimal text still counts. */
describeOnSqlite('request schemas: types are checked, never coerced', (kind) => {
  let gw: TestGateway;
  let customer: { userId: number; key: string };
  const QUOTA = 10_000_000;

  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on' });
    customer = await gw.createCustomer({ quota: QUOTA });
  });
  afterAll(async () => gw?.close());

  const post = (path: string, body: unknown) =>
    gw.http.post(path).set('Authorization', `Bearer ${customer.key}`).set('Content-Type', 'application/json').send(JSON.stringify(body));

  it.each<[string, string, unknown, object]>([
    [
      'beta: a duration as text',
      '/v1/video/generations',
      { model: 'beta-1.0-t2v', prompt: 'p', duration: '5' },
      wrapper('duration must be an integer'),
    ],
    [
      'beta: a seed as text',
      '/v1/video/generations',
      { model: 'beta-1.0-t2v', prompt: 'p', metadata: { seed: '7' } },
      wrapper('metadata.seed must be an integer'),
    ],
    [
      'beta: a watermark as text',
      '/v1/video/generations',
      { model: 'beta-1.0-t2v', prompt: 'p', metadata: { watermark: 'true' } },
      wrapper('metadata.watermark must be a boolean'),
    ],
    ['beta: null prompt', '/v1/video/generations', { model: 'beta-1.0-t2v', prompt: null }, wrapper('prompt must be a string')],
    [
      'beta: an array for metadata',
      '/v1/video/generations',
      { model: 'beta-1.0-t2v', prompt: 'p', metadata: [] },
      wrapper('metadata must be an object'),
    ],
    [
      'beta: a media element that is not an object',
      '/v1/video/generations',
      { model: 'beta-1.0-r2v', prompt: 'p', metadata: { input: { media: ['x'] } } },
      wrapper('metadata.input.media[0] must be an object with type and url'),
    ],
    [
      'gamma: a duration as text',
      '/v1/video/generations',
      { model: 'gamma-2-0', prompt: 'p', duration: '5' },
      wrapper('duration must be an integer'),
    ],
    [
      'gamma: null ratio',
      '/v1/video/generations',
      { model: 'gamma-2-0', prompt: 'p', metadata: { ratio: null } },
      wrapper('metadata.ratio must be a string'),
    ],
    [
      'gamma: a content item that is not an object',
      '/v1/video/generations',
      { model: 'gamma-2-0', prompt: 'p', metadata: { content: ['x'] } },
      wrapper('metadata.content[0] must be an object'),
    ],
    [
      'gamma: ten references',
      '/v1/video/generations',
      {
        model: 'gamma-2-0',
        prompt: 'p',
        metadata: { content: Array(10).fill({ type: 'image_url', image_url: { url: 'https://cdn.example/a.png' } }) },
      },
      wrapper('metadata.content may hold at most 9 reference images'),
    ],
    [
      'gamma: a malformed asset reference',
      '/v1/video/generations',
      { model: 'gamma-2-0', prompt: 'p', metadata: { content: [{ type: 'image_url', image_url: { url: 'asset://' } }] } },
      wrapper('metadata.content[0].image_url.url must be asset://<asset_id>'),
    ],
    [
      'gamma: a prompt over 5000 characters',
      '/v1/video/generations',
      { model: 'gamma-2-0', prompt: 'x'.repeat(5001) },
      wrapper('prompt must be at most 5000 characters'),
    ],
    [
      'beta on /v1/videos: a size array',
      '/v1/videos',
      { model: 'beta-1.0-t2v', prompt: 'p', size: ['1280x720'] },
      openai('size must be a string', 'size'),
    ],
    ['family O: null prompt', '/v1/videos', { model: 'openai-simulator', prompt: null }, openai('prompt must be a string', 'prompt')],
    [
      'family O: a duration as text',
      '/v1/videos',
      { model: 'openai-simulator', prompt: 'p', duration: '4' },
      openai('duration must be a whole number of seconds from 1 to 120', 'duration'),
    ],
    [
      'family O: 121 seconds',
      '/v1/videos',
      { model: 'openai-simulator', prompt: 'p', seconds: '121' },
      openai('seconds must be 4, 8 or 12 seconds for openai-simulator', 'seconds'),
    ],
    [
      'family O: an array size',
      '/v1/videos',
      { model: 'openai-simulator', prompt: 'p', size: ['1280x720'] },
      openai('size must be <width>x<height> in pixels, e.g. 1280x720', 'size'),
    ],
    [
      'family O: a file_id reference',
      '/v1/videos',
      { model: 'openai-simulator', prompt: 'p', input_reference: { file_id: 'file-1' } },
      openai('input_reference must be a file part, an http(s) URL or {"image_url": "<http(s) URL>"}', 'input_reference'),
    ],
  ])('400, nothing charged: %s', async (_name, path, body, expected) => {
    const res = await post(path, body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: expected });
    expect(await gw.balance(customer.userId)).toEqual({ quota: QUOTA, used_quota: 0 });
  });

  it('still takes multipart decimal text for integers and booleans (alpha, beta, family O) and charges each once', async () => {
    const form = (fields: Record<string, string>) => {
      const req = gw.http.post('/v1/videos').set('Authorization', `Bearer ${customer.key}`);
      for (const [name, value] of Object.entries(fields)) req.field(name, value);
      return req;
    };
    const cases: Array<Record<string, string>> = [
      { model: 'alpha/v6', prompt: 'p', duration: '5', metadata: JSON.stringify({ seed: '7', water_mark: 'true' }) },
      { model: 'beta-1.0-t2v', prompt: 'p', seconds: '5', size: '1280x720', metadata: JSON.stringify({ seed: '7', watermark: 'false' }) },
      { model: 'openai-simulator', prompt: 'p', seconds: '4', size: '1280x720' },
    ];
    for (const fields of cases) {
      const before = (await gw.balance(customer.userId)).used_quota;
      const res = await form(fields);
      expect({ model: fields.model, status: res.status }).toEqual({ model: fields.model, status: 200 });
      expect((await gw.balance(customer.userId)).used_quota).toBeGreaterThan(before);
    }
  });
});
