import { customerCalls, FamilyGateway, familyTasks, startFamilyGateway, VideoFake } from './family-gateway';
import type { TestGateway } from './gateway';
import { databaseKinds, describeOnSqlite } from './test-databases';

/** A body the gateway refuses with a 400 naming `param` before the provider is asked. */
export interface FamilyRefusal {
  /** The surface it is sent on; `both` sends it on the unified one too (`seconds` becoming `duration`). */
  form: 'flat' | 'unified' | 'both';
  body: Record<string, unknown>;
  param: string;
  /** The flat error's whole message, where the case pins it. */
  message?: string;
  /** What the case is, for its title (the body otherwise). */
  name?: string;
}

/** A task the provider ends in failure: failed with `reason` on both surfaces, refunded exactly once. */
export interface FamilyFailure<F> {
  name: string;
  /** Scripts the fake (a marker in the prompt may do instead). */
  arrange?: (fake: F) => void;
  body: Record<string, unknown>;
  /** The surface of the submit (flat by default). */
  surface?: 'flat' | 'unified';
  /** The provider refuses it at submit: the submit answers the task already failed. */
  atSubmit?: boolean;
  /** The flat `error.message` and the unified `fail_reason` (a value or an asymmetric matcher). */
  reason: unknown;
  /** The flat error's code, where the case pins it. */
  code?: string;
  /** What of the provider's words must never show. */
  hidden?: RegExp;
}

/** A submit the provider refuses: answered `status` (429 and 503 with Retry-After), nothing charged. */
export interface FamilySubmitFault<F> {
  name: string;
  arrange?: (fake: F) => void;
  body: Record<string, unknown>;
  status: 400 | 429 | 503;
  /** The Retry-After it must carry, where the provider gave one. */
  retryAfter?: string;
  /** The flat error's whole message, where the case pins it. */
  message?: string;
  hidden?: RegExp;
}

/** What a family suite's cases are given: the gateway, the fake and the customer (set once the suite started), and the calls. */
export interface FamilyContext<F extends VideoFake> extends FamilyGateway<F> {
  auth: ReturnType<typeof customerCalls>['auth'];
  flat: ReturnType<typeof customerCalls>['flat'];
  unified: ReturnType<typeof customerCalls>['unified'];
  flatTask: ReturnType<typeof customerCalls>['flatTask'];
  unifiedTask: ReturnType<typeof customerCalls>['unifiedTask'];
  settle: ReturnType<typeof familyTasks>['settle'];
  finish: ReturnType<typeof familyTasks>['finish'];
  expectVideo: ReturnType<typeof familyTasks>['expectVideo'];
  balance(): ReturnType<TestGateway['balance']>;
  /** The ledger rows' types of a task, sorted. */
  ledgerOf(taskId: string): Promise<string[]>;
}

export interface FamilySuite<F extends VideoFake> {
  title: string;
  platform: string;
  startFake: () => Promise<F>;
  /** The channel on the fake (its URL and key are added). */
  channel: { name: string; models: string[]; priority?: number };
  quota?: number;
  /** Sync rounds, and the clock's step between them, that take a task of the family to its end. */
  pace: { rounds: number; stepMs: number };
  /** How many submits the fake has taken. */
  submitsOf: (fake: F) => number;
  /** The family's entry in GET /api/admin/platforms (matched). */
  listing: Record<string, unknown>;
  refusals: FamilyRefusal[];
  failures: FamilyFailure<F>[];
  submitFaults: FamilySubmitFault<F>[];
  /** The family's own cases, run before the common ones (they may add hooks of their own). */
  cases?: (t: FamilyContext<F>) => void;
  /** The family's own cases that change the set-up (a second channel...), run last. */
  lastCases?: (t: FamilyContext<F>) => void;
}

/**
 * One provider family's e2e suite against its emulator on loopback, on SQLite: a gateway with one channel on the
 * fake and a customer; the family's own cases; then what every family proves the same way: the refusals of its
 * model rules (400 naming the field, nothing charged, nothing sent), the tasks it fails (failed with the gateway's
 * words, refunded exactly once), the submits it refuses (mapped status, Retry-After, nothing charged), and its entry
 * in the admin's platform list.
 */
export function describeFamily<F extends VideoFake>(suite: FamilySuite<F>): void {
  describeOnSqlite(suite.title, (kind) => {
    const t = {} as FamilyContext<F>;
    beforeAll(async () => {
      const { name, models, priority } = suite.channel;
      const started = await startFamilyGateway(
        kind,
        suite.startFake,
        { name, platform: suite.platform, models, ...(priority === undefined ? {} : { priority }) },
        suite.quota ?? 1_000_000,
      );
      Object.assign(t, started);
    });
    afterAll(async () => {
      await t.close?.();
    });

    withFamilyCalls(t, suite.pace);

    suite.cases?.(t);

    if (suite.refusals.length)
      it.each(
        suite.refusals.map(
          (refusal) => [`on ${refusal.form} ${refusal.name ?? JSON.stringify(refusal.body)} (${refusal.param})`, refusal] as const,
        ),
      )('refuses %s with a 400 naming the field, nothing charged, nothing sent', async (_title, { form, body, param, message }) => {
        const before = await t.balance();
        const submits = suite.submitsOf(t.fake);
        if (form !== 'unified') {
          const res = await t.flat(body).expect(400);
          expect(res.body.error).toMatchObject({ param, ...(message === undefined ? {} : { message }) });
          expect(res.body.error.message).toContain(param);
        }
        if (form !== 'flat') {
          const { seconds, ...rest } = body;
          const named = param === 'seconds' ? 'duration' : param;
          const res = await t
            .unified(seconds === undefined || form === 'unified' ? body : { ...rest, duration: Number(seconds) })
            .expect(400);
          // The unified wrapper has no `param`: its message names the field.
          expect(JSON.stringify(res.body)).toContain(named);
          expect(res.body.error?.message ?? res.body.message).toContain(named);
        }
        expect(suite.submitsOf(t.fake)).toBe(submits);
        expect(await t.balance()).toEqual(before);
      });

    if (suite.failures.length)
      it.each(suite.failures.map((failure) => [failure.name, failure] as const))(
        "a task the provider fails (%s) ends failed with the gateway's words, never the provider's, refunded exactly once",
        async (_name, { arrange, body, surface, atSubmit, reason, code, hidden }) => {
          const before = await t.balance();
          arrange?.(t.fake);
          const res = await (surface === 'unified' ? t.unified(body) : t.flat(body)).expect(200);
          if (atSubmit && surface !== 'unified') expect(res.body.status).toBe('failed');
          if (!atSubmit) {
            expect((await t.balance()).quota).toBeLessThan(before.quota);
            await t.settle();
          }
          const flat = await t.flatTask(res.body.id);
          expect(flat).toMatchObject({ status: 'failed', error: { message: reason, ...(code === undefined ? {} : { code }) } });
          const unified = await t.unifiedTask(res.body.id);
          expect(unified).toMatchObject({ status: 'FAILURE', fail_reason: reason });
          if (hidden) expect(JSON.stringify([flat, unified])).not.toMatch(hidden);
          expect(await t.balance()).toEqual(before);
          expect(await t.ledgerOf(res.body.id)).toEqual(['consume', 'refund']);
        },
      );

    if (suite.submitFaults.length)
      it.each(suite.submitFaults.map((fault) => [fault.name, fault] as const))(
        'a submit the provider refuses (%s) is answered as mapped, nothing charged',
        async (_name, { arrange, body, status, retryAfter, message, hidden }) => {
          const before = await t.balance();
          arrange?.(t.fake);
          const res = await t.flat(body).expect(status);
          if (status !== 400) expect(res.headers['retry-after']).toBeDefined();
          if (retryAfter !== undefined) expect(res.headers['retry-after']).toBe(retryAfter);
          if (message !== undefined) expect(res.body.error.message).toBe(message);
          if (hidden) expect(JSON.stringify(res.body)).not.toMatch(hidden);
          expect(await t.balance()).toEqual(before);
        },
      );

    it('lists the family in GET /api/admin/platforms', async () => {
      const platforms = (await t.gw.admin.get('/api/admin/platforms').expect(200)).body.data as Array<{ platform: string }>;
      expect(platforms.find((entry) => entry.platform === suite.platform)).toMatchObject(suite.listing);
    });

    suite.lastCases?.(t);
  });
}

/** The calls, task helpers, balance and ledger a family's cases use, bound to `t` (filled once its gateway started). */
function withFamilyCalls<F extends VideoFake>(t: FamilyContext<F>, pace: FamilySuite<F>['pace']): void {
  Object.assign(
    t,
    customerCalls(() => t),
    familyTasks(() => t, pace),
    {
      balance: () => t.gw.balance(t.customer.userId),
      ledgerOf: async (taskId: string) =>
        ((await t.gw.admin.get(`/api/admin/logs?task_id=${taskId}`).expect(200)).body.data as Array<{ type: string }>)
          .map((row) => row.type)
          .sort(),
    },
  );
}

/** What a family's money block starts: its fake, one channel on it and a customer with `quota`. */
export type FamilyMoneySetup<F extends VideoFake> = Pick<FamilySuite<F>, 'platform' | 'startFake' | 'channel' | 'quota' | 'pace'>;

/**
 * What touches money, on the databases other than SQLite (which runs the family's whole suite):
 * `cases` get the same context as a family suite's, on a gateway of each configured database.
 */
export function describeFamilyMoney<F extends VideoFake>(
  title: string,
  setup: FamilyMoneySetup<F>,
  cases: (t: FamilyContext<F>) => void,
): void {
  for (const kind of databaseKinds().filter((each) => each !== 'sqlite'))
    describe(`${title}: money [${kind}]`, () => {
      const t = {} as FamilyContext<F>;
      beforeAll(async () => {
        const { name, models, priority } = setup.channel;
        const channel = { name, platform: setup.platform, models, ...(priority === undefined ? {} : { priority }) };
        Object.assign(t, await startFamilyGateway(kind, setup.startFake, channel, setup.quota ?? 1_000_000));
      });
      afterAll(async () => {
        await t.close?.();
      });
      withFamilyCalls(t, setup.pace);
      cases(t);
    });
}
