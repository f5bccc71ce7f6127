import type { Test as SuperTest } from 'supertest';
import { binaryBody } from './binary-body';
import { startGateway, TestGateway } from './gateway';
import { describeOnSqlite } from './test-databases';

/** A customer of a gateway that runs the embedded simulator (SIMULATOR=on), and what a family's case checks with it. */
export interface SimulatorCustomer {
  gw: TestGateway;
  userId: number;
  /** POST /v1/video/generations as the customer. */
  post(body: object): SuperTest;
  /** Submits each body (each answered 200); their task ids, in order. */
  submitAll(bodies: object[]): Promise<string[]>;
  /** The task's `data` on GET /v1/video/generations/{id}. */
  task(id: string): Promise<{ status: string; fail_reason?: string }>;
  /** `rounds` syncs, the clock stepping `stepMs` before each. */
  run(rounds: number, stepMs: number): Promise<void>;
  /** Every task ended SUCCESS, and `contentOf`'s content is the simulator's video (an MP4). */
  expectDelivered(ids: string[], contentOf: string): Promise<void>;
  /** The busy prompt on `model` is a 429 and the credits prompt a 503, as its provider answers them. */
  expectBusyAndCredits(model: string): Promise<void>;
  /** On `model`: the reject prompt's task fails as moderated, busy and credits as above, the balance as it was. */
  expectMarkersKeepNothing(model: string): Promise<void>;
}

/**
 * A family's case against the embedded simulator, on SQLite: a gateway with SIMULATOR on (its seeded channels)
 * and a customer with `quota`, made before `body` runs.
 */
export function describeEmbeddedSimulator(
  title: string,
  quota: number,
  caseTitle: string,
  body: (s: SimulatorCustomer) => Promise<void>,
): void {
  describeOnSqlite(title, (kind) => {
    let gw: TestGateway;
    beforeAll(async () => {
      gw = await startGateway(kind, { SIMULATOR: 'on' });
    });
    afterAll(async () => {
      await gw?.close();
    });

    it(caseTitle, async () => {
      const { userId, key } = await gw.createCustomer({ quota });
      const post = (sent: object) => gw.http.post('/v1/video/generations').set('Authorization', `Bearer ${key}`).send(sent);
      const task = async (id: string) =>
        (await gw.http.get(`/v1/video/generations/${id}`).set('Authorization', `Bearer ${key}`).expect(200)).body.data;
      const expectBusyAndCredits = async (model: string) => {
        await post({ model, prompt: 'x [simulate:busy]' }).expect(429);
        await post({ model, prompt: 'x [simulate:credits]' }).expect(503);
      };
      await body({
        gw,
        userId,
        post,
        submitAll: async (bodies) => {
          const ids: string[] = [];
          for (const sent of bodies) ids.push((await post(sent).expect(200)).body.id);
          return ids;
        },
        task,
        run: async (rounds, stepMs) => {
          for (let round = 0; round < rounds; round++) {
            gw.clock.advance(stepMs);
            await gw.sync();
          }
        },
        expectDelivered: async (ids, contentOf) => {
          for (const id of ids) expect({ id, status: (await task(id)).status }).toEqual({ id, status: 'SUCCESS' });
          const content = await gw.http
            .get(`/v1/videos/${contentOf}/content`)
            .set('Authorization', `Bearer ${key}`)
            .buffer(true)
            .parse(binaryBody)
            .expect(200);
          // The simulator's video, made to what was asked (so settled at what was charged).
          expect((content.body as Buffer).subarray(4, 8).toString('latin1')).toBe('ftyp');
        },
        expectBusyAndCredits,
        expectMarkersKeepNothing: async (model) => {
          const charged = await gw.balance(userId);
          const rejected = await post({ model, prompt: 'x [simulate:reject]' }).expect(200);
          expect(await task(rejected.body.id)).toMatchObject({
            status: 'FAILURE',
            fail_reason: expect.stringMatching(/^content moderation failed/),
          });
          await expectBusyAndCredits(model);
          expect(await gw.balance(userId)).toEqual(charged);
        },
      });
    });
  });
}
