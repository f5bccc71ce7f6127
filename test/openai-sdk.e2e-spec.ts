import OpenAI, { toFile } from 'openai';
import { fakePng, AlphaEmulatorServer, startAlphaEmulator } from './support/alpha-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

/** The official `openai` package (6.x) as a client of /v1/videos. */
describeOnSqlite('OpenAI SDK against /v1/videos', (kind) => {
  let gw: TestGateway;
  let fake: AlphaEmulatorServer;
  let client: OpenAI;
  let userId: number;
  const QUOTA = 1_000_000;

  beforeAll(async () => {
    fake = await startAlphaEmulator();
    gw = await startGateway(kind);
    await gw.createChannel({
      name: 'alpha',
      platform: 'alpha',
      base_url: fake.url,
      api_key: fake.apiKey,
      models: ['alpha/v6', 'alpha/v5'],
    });
    const customer = await gw.createCustomer({ quota: QUOTA });
    userId = customer.userId;
    client = new OpenAI({ apiKey: customer.key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const finish = async () => {
    gw.clock.advance(4000);
    await gw.sync();
  };

  it('creates (multipart), retrieves, downloads and deletes a video', async () => {
    fake.scriptNext([5, 1]);
    const created = await client.videos.create({ model: 'alpha/v6', prompt: 'a paper boat on a river', seconds: '8', size: '1280x720' });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^task_/),
      object: 'video',
      model: 'alpha/v6',
      status: 'queued',
      progress: 0,
    });
    const sent = fake.calls('generate')[0].json;
    expect(sent).toEqual({ model: 'v6', prompt: 'a paper boat on a river', duration: 8, quality: '720p', aspect_ratio: '16:9' });
    expect(await gw.balance(userId)).toEqual({ quota: QUOTA - 7200, used_quota: 7200 });

    await finish();
    expect((await client.videos.retrieve(created.id)).status).toBe('in_progress');
    await finish();
    const done = await client.videos.retrieve(created.id);
    expect(done).toMatchObject({ id: created.id, status: 'completed', progress: 100, size: '1280x720' });

    const content = await client.videos.downloadContent(created.id);
    expect(content.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.compare(Buffer.from(await content.arrayBuffer()), fake.videoBytes)).toBe(0);

    const deleted = await client.videos.delete(created.id);
    expect(deleted).toEqual({ id: created.id, object: 'video.deleted', deleted: true });
    await expect(client.videos.retrieve(created.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('sends an input_reference file for image-to-video', async () => {
    const png = fakePng(1024);
    const created = await client.videos.create({
      model: 'alpha/v6',
      prompt: 'the picture comes alive',
      input_reference: await toFile(png, 'frame.png', { type: 'image/png' }),
    });
    expect(created.status).toBe('queued');
    const upload = fake.uploads[fake.uploads.length - 1];
    expect(upload.bytes!.equals(png)).toBe(true);
    expect(fake.calls('generate').at(-1)!.json).toMatchObject({ img_id: upload.imgId });
  });

  it('pages through the list with the auto-paginating iterator', async () => {
    for (let i = 0; i < 3; i++) await client.videos.create({ model: 'alpha/v5', prompt: `clip ${i}` });
    const firstPage = await client.videos.list({ limit: 2 });
    expect(firstPage.data).toHaveLength(2);
    expect(firstPage.has_more).toBe(true);
    const ids: string[] = [];
    for await (const video of client.videos.list({ limit: 2 })) ids.push(video.id);
    expect(ids).toHaveLength(4); // the three clips and the image-to-video task; the deleted one is gone
    expect(new Set(ids).size).toBe(4);
  });

  it('raises typed errors with the OpenAI error shape', async () => {
    const error = await client.videos.create({ model: 'alpha/v7', prompt: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_request', param: 'model', type: 'invalid_request_error' });
    expect((error as Error).message).toContain('unknown model: alpha/v7');
    const unauthorized = new OpenAI({ apiKey: 'sk-wrong', baseURL: `${gw.url}/v1`, maxRetries: 0 });
    await expect(unauthorized.videos.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
