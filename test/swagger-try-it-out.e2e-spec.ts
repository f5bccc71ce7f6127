import { startGateway, TestGateway } from './support/gateway';
import { describeOnSqlite } from './support/test-databases';

type Json = Record<string, any>;

/** What Swagger UI samples from a schema when there is no example: example, default, enum, then a type placeholder. */
function sample(schema: Json, docs: Json): unknown {
  if (schema.$ref) return sample(docs.components.schemas[schema.$ref.split('/').pop()], docs);
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  if (schema.oneOf ?? schema.anyOf) return sample((schema.oneOf ?? schema.anyOf)[0], docs);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part: Json) => sample(part, docs)));
  if (schema.type === 'array') return [sample(schema.items, docs)];
  if (schema.type === 'object' || schema.properties)
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, prop]) => [name, sample(prop as Json, docs)]));
  return { string: 'string', integer: 0, number: 0, boolean: true }[schema.type as string];
}

/** The JSON body "Try it out" starts with: the first of the media type's examples, else its example, else a sample of its schema. */
function prefilled(media: Json, docs: Json): unknown {
  if (media.examples) return (Object.values(media.examples)[0] as Json).value;
  if (media.example !== undefined) return media.example;
  return sample(media.schema, docs);
}

const placeholders = (value: unknown): string[] =>
  typeof value === 'string'
    ? value === 'string'
      ? ['"string"']
      : []
    : value && typeof value === 'object'
      ? Object.values(value).flatMap(placeholders)
      : [];

/** Issue 14 point 5: Swagger's "Try it out" works as pre-filled, against the embedded simulator with the defaults. */
describeOnSqlite('swagger: "Try it out" as pre-filled', (kind) => {
  let gw: TestGateway;
  let docs: Json;
  let customer: { userId: number; key: string };

  beforeAll(async () => {
    gw = await startGateway(kind, { SIMULATOR: 'on', MEDIA_ALLOW_PRIVATE_HOSTS: 'false' });
    customer = await gw.createCustomer({ quota: 10_000_000 });
    docs = (await gw.http.get('/docs-json').expect(200)).body;
  });
  afterAll(async () => gw?.close());

  const SUBMITS = ['/v1/videos', '/v1/video/generations'];
  const submit = (path: string, body: unknown, key = customer.key) =>
    gw.http
      .post(path)
      .set('Authorization', `Bearer ${key}`)
      .send(body as object);

  it.each(SUBMITS)(
    'POST %s: the pre-filled body has no "string" placeholders, and every example is accepted (200, charged)',
    async (path) => {
      const media = docs.paths[path].post.requestBody.content['application/json'];
      expect(placeholders(prefilled(media, docs))).toEqual([]);
      const examples = Object.entries(media.examples as Record<string, { value: Json }>);
      expect(examples.length).toBeGreaterThan(0);
      for (const [name, { value }] of examples) {
        const before = await gw.balance(customer.userId);
        const res = await submit(path, value);
        expect({ name, status: res.status, body: res.body }).toMatchObject({
          name,
          status: 200,
          body: { object: 'video', status: 'queued', model: value.model },
        });
        expect((await gw.balance(customer.userId)).quota).toBeLessThan(before.quota);
      }
    },
  );

  it('POST /v1/videos as multipart/form-data: every example, sent as Swagger UI sends it (one form field per key), is accepted', async () => {
    const media = docs.paths['/v1/videos'].post.requestBody.content['multipart/form-data'];
    for (const [name, { value }] of Object.entries(media.examples as Record<string, { value: Json }>)) {
      const req = gw.http.post('/v1/videos').set('Authorization', `Bearer ${customer.key}`);
      for (const [field, fieldValue] of Object.entries(value))
        req.field(field, typeof fieldValue === 'object' ? JSON.stringify(fieldValue) : String(fieldValue));
      const res = await req;
      expect({ name, status: res.status, body: res.body }).toMatchObject({
        name,
        status: 200,
        body: { object: 'video', status: 'queued', model: value.model },
      });
    }
  });

  it('lists the video groups first: videos, then the unified form, before verification and the admin API', () => {
    const order = (docs.tags as Array<{ name: string }>).map((tag) => tag.name);
    expect(order.slice(0, 2)).toEqual(['videos', 'video generations (unified form)']);
    expect(order.indexOf('verification')).toBeGreaterThan(1);
    expect(order.indexOf('admin')).toBeGreaterThan(order.indexOf('verification'));
    // Every group an endpoint names is ordered.
    const used = new Set(
      Object.values(docs.paths as Json).flatMap((item: Json) => Object.values(item).flatMap((op: Json) => op.tags ?? [])),
    );
    expect([...used].filter((tag) => !order.includes(tag as string))).toEqual([]);
  });

  it('documents every family request schema on the surfaces that take it, from the classes that validate them', () => {
    const refs = (path: string) =>
      docs.paths[path].post.requestBody.content['application/json'].schema.oneOf.map((ref: Json) => ref.$ref.split('/').pop());
    const newer = [
      'KlingVideoRequest',
      'VeoVideoRequest',
      'MinimaxVideoRequest',
      'RunwayVideoRequest',
      'ViduVideoRequest',
      'XaiVideoRequest',
      'SeedanceVideoRequest',
      'WanVideoRequest',
      'FalVideoRequest',
      'ReplicateVideoRequest',
    ];
    expect(refs('/v1/videos')).toEqual(['CreateVideoRequest', 'BetaVideoRequest', 'OpenAiVideoRequest', ...newer]);
    expect(refs('/v1/video/generations')).toEqual(['BetaVideoRequest', 'GammaVideoRequest', ...newer]);
    expect(docs.components.schemas.BetaVideoRequest.required).toEqual(['model', 'prompt']);
    expect(
      docs.components.schemas.BetaVideoMetadata.properties.input.$ref ??
        docs.components.schemas.BetaVideoMetadata.properties.input.allOf?.[0]?.$ref,
    ).toBe('#/components/schemas/BetaMediaInput');
    expect(docs.components.schemas.GammaVideoMetadata.properties.content.items.$ref).toBe('#/components/schemas/GammaContentItem');
  });

  describe.each([
    ['/v1/videos', { model: 'alpha/v7', prompt: 'a cat' }, 'alpha/v6'],
    ['/v1/video/generations', { model: 'beta-1.0-t2v' }, 'beta-1.0-t2v'],
  ])('POST %s error examples', (path, invalidBody, model) => {
    // What Swagger UI shows: the example, else the first of the named examples (a status with several codes).
    const example = (status: number) => {
      const media = docs.paths[path].post.responses[String(status)].content['application/json'];
      return media.example ?? (Object.values(media.examples ?? {})[0] as { value?: unknown } | undefined)?.value;
    };

    it('give every error status an example of its own, none of them empty', () => {
      const statuses = Object.keys(docs.paths[path].post.responses).filter((status) => Number(status) >= 400);
      expect(statuses.sort()).toEqual(['400', '401', '402', '403', '409', '429', '503']);
      const shown = statuses.map((status) => example(Number(status)));
      for (const body of shown) {
        const message = body.error?.message ?? body.message;
        expect(typeof message === 'string' && message.length > 0).toBe(true);
      }
      expect(new Set(shown.map((body) => JSON.stringify(body))).size).toBe(statuses.length);
    });

    it('are what the gateway answers (400, 401, 402, 403)', async () => {
      expect((await submit(path, invalidBody).expect(400)).body).toEqual(example(400));
      expect((await gw.http.post(path).send({ model, prompt: 'p' }).expect(401)).body).toEqual(example(401));
      const poor = await gw.createCustomer({ quota: 0 });
      expect((await submit(path, { model, prompt: 'p' }, poor.key).expect(402)).body).toEqual(example(402));
      const limited = await gw.createCustomer({ quota: 1_000_000, models: ['sora-2'] });
      expect((await submit(path, { model, prompt: 'p' }, limited.key).expect(403)).body).toEqual(example(403));
    });
  });
});
