import type request from 'supertest';
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
