import OpenAI from 'openai';
import { betaChannelBody, BetaEmulatorServer, SAMPLE_MEDIA, startBetaEmulator } from './support/beta-emulator';
import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

const invalid = (message: string, param: string) => ({ error: { message, type: 'invalid_request_error', param, code: 'invalid_request' } });

/** Family B bodies on POST /v1/videos: the same fields as /v1/video/generations, OpenAI spellings and error shape. */
describeOnSqlite('videos: family B submits on /v1/videos', (kind) => {
  let gw: TestGateway;
  let fake: BetaEmulatorServer;
  let customer: { userId: number; key: string };
  let image1: string;
  let image2: string;
  let video: string;
  const QUOTA = 1_000_000;

  beforeAll(async () => {
    fake = await startBetaEmulator();
    gw = await startGateway(kind);
    await gw.createChannel(betaChannelBody(fake));
    customer = await gw.createCustomer({ quota: QUOTA });
    image1 = fake.serveMedia('one.png', SAMPLE_MEDIA.png);
    image2 = fake.serveMedia('two.jpg', SAMPLE_MEDIA.jpeg);
    video = fake.serveMedia('clip.mp4', SAMPLE_MEDIA.mp4);
  });
  afterAll(async () => {
    await gw?.close();
    await fake?.close();
  });

  const submit = (body: object) => gw.http.post('/v1/videos').set('Authorization', `Bearer ${customer.key}`).send(body);
  const lastSubmit = () => fake.submits().at(-1)!.json as { input: Record<string, unknown>; parameters: Record<string, unknown> };

  it('keeps the orientation of a pixel size: 720x1280 is 720P at 9:16, an explicit ratio wins', async () => {
    await submit({ model: 'beta-1.0-t2v', prompt: 'a tall lighthouse', size: '720x1280' }).expect(200);
    expect(lastSubmit().parameters).toEqual({ resolution: '720P', ratio: '9:16', duration: 5 });
    await submit({ model: 'beta-1.0-t2v', prompt: 'a square', size: '1920x1080', metadata: { ratio: '1:1' } }).expect(200);
    expect(lastSubmit().parameters).toEqual({ resolution: '1080P', ratio: '1:1', duration: 5 });
    // OpenAI's 1792x1024 is nearest to 16:9; i2v still sends no ratio (the image decides).
    await submit({
      model: 'beta-1.0-r2v',
      prompt: '[Image 1] waves',
      size: '1792x1024',
      metadata: { input: { media: [{ type: 'reference_image', url: image1 }] } },
    }).expect(200);
    expect(lastSubmit().parameters).toEqual({ resolution: '1080P', ratio: '16:9', duration: 5 });
    await submit({ model: 'beta-1.0-i2v', prompt: 'she turns', size: '720x1280', input_reference: image1 }).expect(200);
    expect(lastSubmit().parameters).toEqual({ resolution: '720P', duration: 5 });
  });

  it('forwards i2v, r2v and video-edit bodies as /v1/video/generations does', async () => {
    await submit({ model: 'beta-1.0-i2v', prompt: 'she smiles', input_reference: { image_url: image2 }, seconds: '3' }).expect(200);
    expect(lastSubmit()).toEqual({
      model: 'beta-1.0-i2v',
      input: { prompt: 'she smiles', media: [{ type: 'first_frame', url: image2 }] },
      parameters: { resolution: '1080P', duration: 3 },
    });
    const references = [
      { type: 'reference_image', url: image2 },
      { type: 'reference_image', url: image1 },
    ];
    await submit({
      model: 'beta-1.0-r2v',
      prompt: '[Image 1] meets [Image 2]',
      metadata: { ratio: '4:3', seed: 11, input: { media: references } },
    }).expect(200);
    expect(lastSubmit()).toEqual({
      model: 'beta-1.0-r2v',
      input: { prompt: '[Image 1] meets [Image 2]', media: references },
      parameters: { resolution: '1080P', ratio: '4:3', duration: 5, seed: 11 },
    });
    const edit = [{ type: 'video', url: video }, references[0]];
    const res = await submit({
      model: 'beta-1.0-video-edit',
      prompt: 'make it snow',
      duration: 8,
      size: '720P',
      metadata: { audio_setting: 'origin', input: { media: edit } },
    }).expect(200);
    expect(lastSubmit()).toEqual({
      model: 'beta-1.0-video-edit',
      input: { prompt: 'make it snow', media: edit },
      parameters: { resolution: '720P', audio_setting: 'origin' },
    });
    const unified = await gw.http.get(`/v1/video/generations/${res.body.id}`).set('Authorization', `Bearer ${customer.key}`).expect(200);
    expect(unified.body.data).toMatchObject({ task_id: res.body.id, action: 'videoEdit', status: 'NOT_START' });
  });

  it.each([
    ['prompt missing', { model: 'beta-1.0-t2v' }, 'prompt is required', 'prompt'],
    ['an unknown family B model', { model: 'beta-2.0-t2v', prompt: 'p' }, 'unknown model: beta-2.0-t2v', 'model'],
    [
      'i2v without a first frame',
      { model: 'beta-1.0-i2v', prompt: 'p' },
      'beta-1.0-i2v requires a first-frame image: input_reference or one metadata.input.media element of type first_frame',
      'input_reference',
    ],
    [
      'r2v without reference images',
      { model: 'beta-1.0-r2v', prompt: 'p' },
      'beta-1.0-r2v requires at least 1 reference_image in metadata.input.media',
      'metadata.input.media',
    ],
    [
      'a duration of 16 s via seconds',
      { model: 'beta-1.0-t2v', prompt: 'p', seconds: '16' },
      // Named as the client sent it.
      'seconds must be an integer between 3 and 15 (seconds)',
      'seconds',
    ],
    [
      'a seed out of range',
      { model: 'beta-1.0-t2v', prompt: 'p', metadata: { seed: 2147483648 } },
      'metadata.seed must be an integer between 0 and 2147483647',
      'metadata.seed',
    ],
  ])('refuses %s with 400 in the OpenAI shape, before any charge', async (_name, body, message, param) => {
    const submits = fake.submits().length;
    const before = await gw.balance(customer.userId);
    const res = await submit(body).expect(400);
    expect(res.body).toEqual(invalid(message, param));
    expect(fake.submits()).toHaveLength(submits);
    expect(await gw.balance(customer.userId)).toEqual(before);
  });

  it('takes a family B submit from the OpenAI SDK (multipart), portrait size included', async () => {
    const client = new OpenAI({ apiKey: customer.key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const created = await client.videos.create({ model: 'beta-1.0-t2v', prompt: 'a paper boat', seconds: '4', size: '720x1280' });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^task_/),
      object: 'video',
      model: 'beta-1.0-t2v',
      status: 'queued',
      progress: 0,
    });
    expect(lastSubmit()).toEqual({
      model: 'beta-1.0-t2v',
      input: { prompt: 'a paper boat' },
      parameters: { resolution: '720P', ratio: '9:16', duration: 4 },
    });
    const error = await client.videos.create({ model: 'beta-1.0-t2v', prompt: '' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'prompt', code: 'invalid_request' });
  });
});
