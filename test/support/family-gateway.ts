import type request from 'supertest';
import { binaryBody } from './binary-body';
import { startGateway, TestGateway } from './gateway';
import type { DatabaseKind } from './test-databases';

/** What a family's fake upstream offers the set-up: where it listens and the key it wants. */
export interface FamilyFake {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

export interface FamilyGateway<F extends FamilyFake> {
  gw: TestGateway;
  fake: F;
  customer: { userId: number; key: string; keyId: number };
  close(): Promise<void>;
}

/**
 * A family suite's set-up: its fake upstream, a gateway, one channel on the fake (`channel` adds
 * name, platform, models... to the fake's URL and key) and a customer with `quota`.
 */
export async function startFamilyGateway<F extends FamilyFake>(
  kind: DatabaseKind,
  startFake: () => Promise<F>,
  channel: Record<string, unknown>,
  quota = 1_000_000,
): Promise<FamilyGateway<F>> {
  const fake = await startFake();
  let gw: TestGateway | undefined;
  try {
    gw = await startGateway(kind);
    await gw.createChannel({ base_url: fake.url, api_key: fake.apiKey, ...channel });
    const customer = await gw.createCustomer({ quota });
    const started = gw;
    return {
      gw: started,
      fake,
      customer,
      async close() {
        await started.close();
        await fake.close();
      },
    };
  } catch (error) {
    await gw?.close();
    await fake.close();
    throw error;
  }
}

/** A customer's calls on both surfaces, on whatever `target()` is when they run (set up in a beforeAll). */
export function customerCalls(target: () => { gw: TestGateway; customer: { key: string } }) {
  const auth = <T extends { set(name: string, value: string): T }>(req: T): T =>
    req.set('Authorization', `Bearer ${target().customer.key}`);
  const http = () => target().gw.http;
  return {
    auth,
    /** POST /v1/videos (JSON). */
    flat: (body: object): request.Test => auth(http().post('/v1/videos')).send(body),
    /** POST /v1/video/generations. */
    unified: (body: object): request.Test => auth(http().post('/v1/video/generations')).send(body),
    /** GET /v1/videos/:id, answered 200: the task. */
    flatTask: async (id: string) => (await auth(http().get(`/v1/videos/${id}`)).expect(200)).body,
    /** GET /v1/video/generations/:id, answered 200: its `data`. */
    unifiedTask: async (id: string) => (await auth(http().get(`/v1/video/generations/${id}`)).expect(200)).body.data,
  };
}

/** A fake upstream that serves one known video for every finished task. */
export interface VideoFake extends FamilyFake {
  videoBytes: Buffer;
}

/**
 * A family suite's follow-up of its tasks: `settle` runs the sync `rounds` times, `stepMs` apart on the
 * gateway's clock; `finish` settles and reads the task (GET /v1/video/generations/:id, its `data`);
 * `expectVideo` finishes it and checks it ended a success (and `fields`), served the fake's video
 * through /content and never showed the fake's address. It answers the task's `data`.
 */
export function familyTasks<F extends VideoFake>(target: () => FamilyGateway<F>, pace: { rounds: number; stepMs: number }) {
  const { auth, unifiedTask } = customerCalls(target);
  const settle = async () => {
    for (let round = 0; round < pace.rounds; round++) {
      target().gw.clock.advance(pace.stepMs);
      await target().gw.sync();
    }
  };
  const finish = async (taskId: string) => {
    await settle();
    return unifiedTask(taskId);
  };
  const expectVideo = async (taskId: string, fields: object = {}) => {
    const { gw, fake } = target();
    const data = await finish(taskId);
    expect(data).toMatchObject({ status: 'SUCCESS', progress: '100%', ...fields });
    const content = await auth(gw.http.get(`/v1/videos/${taskId}/content`))
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    expect(Buffer.compare(content.body as Buffer, fake.videoBytes)).toBe(0);
    expect(JSON.stringify(data)).not.toContain(fake.url);
    return data;
  };
  return { settle, finish, expectVideo };
}
