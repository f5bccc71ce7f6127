import { channelTiers } from '../../upstream/channel-ranking';
import type { ChannelEntity } from '../../upstream/channel.entity';
import type { UpstreamAdapter } from '../../upstream/upstream-adapter';
import type { TaskDraft } from '../task-draft';
import type { TaskEntity } from '../task.entity';
import { Admitted, Candidate, firstServed, onOneRoute, PlanInput, planDispatch, RouteInput, storedRoute, walkPlan } from './dispatch-plan';

// The dispatch plan with plain fakes: channels as objects, a seeded random, breakers as a map, families as stubs.

let nextId = 1;
const channel = (platform: string, fields: Partial<ChannelEntity> = {}): ChannelEntity =>
  ({ id: nextId++, name: `c${nextId}`, platform, models: ['m'], groups: null, priority: 0, weight: 1, ...fields }) as ChannelEntity;
const adapter = (platform: string) => ({ defaultUpstreamModel: (model: string) => `${model}@${platform}` }) as UpstreamAdapter;
const draftOn = (platform: string, fields: Partial<TaskDraft> = {}): TaskDraft => ({
  platform,
  model: 'm',
  action: 'textGenerate',
  request: { on: platform },
  quote: { model: 'm', resolution: '720p', seconds: 5 },
  ...fields,
});
const validated = (platform: string, draft = draftOn(platform)): RouteInput => ({ platform, adapter: adapter(platform), validated: draft });
const later = (platform: string, build: () => Promise<{ draft: TaskDraft; release?: () => void }>): RouteInput => ({
  platform,
  adapter: adapter(platform),
  build,
});
/** A seeded random: the same sequence every run. */
const seeded =
  (seed = 42) =>
  () =>
    (seed = (seed * 16807) % 2147483647) / 2147483647;

function plan(channels: ChannelEntity[], routes: RouteInput[], extra: Partial<PlanInput> = {}) {
  return planDispatch({
    tiers: channelTiers(channels, 'm', 'default'),
    routes,
    openUntil: () => null,
    random: seeded(),
    price: () => Promise.resolve({ quota: 100, detail: 'm 720p 5s', basis: null }),
    priceOf: () => Promise.resolve(100),
    ...extra,
  });
}
const ids = (candidates: readonly Candidate[]) => candidates.map((candidate) => candidate.channel.id);

describe('planDispatch: the order of the candidates', () => {
  it('ranks by priority, highest first, the channels of every route together (a lower-priority platform is a failover)', () => {
    const low = channel('kling', { priority: 0 });
    const high = channel('kling', { priority: 10 });
    const middle = channel('fal', { priority: 5 });
    const { candidates } = plan([low, high, middle], [validated('kling'), later('fal', () => Promise.reject(new Error('unused')))]);
    expect(ids(candidates)).toEqual([high.id, middle.id, low.id]);
  });

  it('within one priority orders by weight: a channel of weight 3 comes first about three times in four; weight 0 goes last', () => {
    const heavy = channel('kling', { weight: 3 });
    const light = channel('kling', { weight: 1 });
    const none = channel('kling', { weight: 0 });
    const random = seeded(7);
    let heavyFirst = 0;
    for (let i = 0; i < 4000; i++) {
      const order = ids(plan([heavy, light, none], [validated('kling')], { random }).candidates);
      if (order[0] === heavy.id) heavyFirst++;
      expect(order[2]).toBe(none.id);
    }
    expect(heavyFirst / 4000).toBeGreaterThan(0.72);
    expect(heavyFirst / 4000).toBeLessThan(0.78);
  });

  it('takes only the channels listing the model (any case) and open to the group (by exact name; none: every group)', () => {
    const forAll = channel('kling', { models: ['M'] });
    const vip = channel('kling', { groups: ['vip'] });
    const legacy = channel('kling', { groups: 'vip-customers' as unknown as string[] });
    const otherModel = channel('kling', { models: ['n'] });
    const tiers = (group: string) => channelTiers([forAll, vip, legacy, otherModel], 'm', group);
    expect(ids(plan([], [validated('kling')], { tiers: tiers('default') }).candidates)).toEqual([forAll.id]);
    expect(ids(plan([], [validated('kling')], { tiers: tiers('vip') }).candidates).sort()).toEqual([forAll.id, vip.id].sort());
  });

  it('leaves out the channels whose breaker is open and says when the first lets a submit try again; a half-open one stays in its place', () => {
    const open = channel('kling', { priority: 10 });
    const halfOpen = channel('kling', { priority: 5 });
    const later1 = channel('fal', { priority: 0 });
    const breakers = new Map([[open.id, 5_000]]);
    const built = plan([open, halfOpen, later1], [validated('kling'), later('fal', async () => ({ draft: draftOn('fal') }))], {
      openUntil: (id) => breakers.get(id) ?? null,
    });
    expect(ids(built.candidates)).toEqual([halfOpen.id, later1.id]);
    expect(built.openUntil).toBe(5_000);
    // The first route still has a candidate: a 503 for routes refusing the request would not say when to come back.
    expect(built.firstRouteOpenUntil).toBeNull();

    breakers.set(halfOpen.id, 3_000);
    const closed = plan([open, halfOpen, later1], [validated('kling'), later('fal', async () => ({ draft: draftOn('fal') }))], {
      openUntil: (id) => breakers.get(id) ?? null,
    });
    expect(ids(closed.candidates)).toEqual([later1.id]);
    expect(closed.openUntil).toBe(3_000);
    expect(closed.firstRouteOpenUntil).toBe(3_000);
  });

  it('keeps to the pinned channels (verified assets on one provider account), and leaves out the excluded one (the channel that just failed the task)', () => {
    const [a, b, c] = [channel('gamma'), channel('gamma'), channel('gamma')];
    expect(ids(plan([a, b, c], [validated('gamma')], { pinned: [b.id] }).candidates)).toEqual([b.id]);
    expect(ids(plan([a, b, c], [validated('gamma')], { excluded: b.id }).candidates).sort()).toEqual([a.id, c.id].sort());
  });

  it('no channel at all: no candidate and nothing to wait for', () => {
    const built = plan([], [validated('kling')]);
    expect(built.candidates).toEqual([]);
    expect(built.openUntil).toBeNull();
    expect(built.firstRouteOpenUntil).toBeNull();
  });
});

describe('planDispatch: the route of each candidate', () => {
  it("sends the validated draft by its own route at the plan's price, with the route's model (the family's default without one)", async () => {
    const own = channel('kling');
    const built = plan([own], [validated('kling', draftOn('kling', { routeModel: 'kling-v2' }))]);
    expect(await built.price()).toEqual({ quota: 100, detail: 'm 720p 5s', basis: null });
    expect(await built.candidates[0].route()).toMatchObject({
      platform: 'kling',
      routeModel: 'kling-v2',
      draft: { platform: 'kling' },
      fields: { platform: 'kling', request: { on: 'kling' }, action: 'textGenerate', properties: null, outputSize: null },
      price: 100,
    });
    const plain = plan([own], [validated('kling')]);
    expect((await plain.candidates[0].route())?.routeModel).toBe('m@kling');
  });

  it("builds another route's draft only when a candidate of its platform is first needed, once, and releases it once", async () => {
    const [own, fal1, fal2] = [channel('kling', { priority: 9 }), channel('fal'), channel('fal')];
    let builds = 0;
    let released = 0;
    const built = plan(
      [own, fal1, fal2],
      [validated('kling'), later('fal', async () => (builds++, { draft: draftOn('fal'), release: () => released++ }))],
    );
    expect((await built.first())?.candidate.channel.id).toBe(own.id);
    expect(builds).toBe(0);
    const [first, second] = await Promise.all([built.candidates[1].route(), built.candidates[2].route()]);
    expect(first).toMatchObject({ platform: 'fal', draft: { platform: 'fal' }, fields: { request: { on: 'fal' } }, routeModel: 'm@fal' });
    expect(second).toBe(first);
    expect(builds).toBe(1);
    built.release();
    built.release();
    expect(released).toBe(1);
  });

  it("passes over a route whose family refuses the request: its channels have no route, the first is another's, the client's submit goes on", async () => {
    const [fal, own] = [channel('fal', { priority: 9 }), channel('kling')];
    const passed: string[] = [];
    const built = plan([fal, own], [validated('kling'), later('fal', () => Promise.reject(new Error('negative_prompt is not taken')))], {
      passedOver: (platform, why) => passed.push(`${platform}: ${'error' in why ? (why.error as Error).message : why.priced}`),
    });
    expect(ids(built.candidates)).toEqual([fal.id, own.id]);
    expect(await built.candidates[0].route()).toBeNull();
    expect((await built.first())?.candidate.channel.id).toBe(own.id);
    expect(passed).toEqual(['fal: negative_prompt is not taken']);
  });

  it('passes over a route that prices the request otherwise: the client is held one price, whichever platform runs it', async () => {
    const [fal, own] = [channel('fal', { priority: 9 }), channel('kling')];
    const passed: string[] = [];
    const built = plan(
      [fal, own],
      [
        validated('kling'),
        later('fal', async () => ({ draft: draftOn('fal', { quote: { model: 'm', resolution: '1080p', seconds: 5 } }) })),
      ],
      {
        priceOf: async (draft) => (draft.quote.resolution === '1080p' ? 150 : 100),
        passedOver: (platform, why) => passed.push(`${platform}: ${'priced' in why ? `${why.priced} not ${why.price}` : 'refused'}`),
      },
    );
    expect(await built.candidates[0].route()).toBeNull();
    expect((await built.first())?.route.platform).toBe('kling');
    expect(passed).toEqual(['fal: 150 not 100']);

    const alike = plan([fal, own], [validated('kling'), later('fal', async () => ({ draft: draftOn('fal') }))]);
    expect(await alike.first()).toMatchObject({ candidate: { channel: { id: fal.id } }, route: { platform: 'fal', price: 100 } });
  });

  it("a route's draft pinned to channels (verified assets) takes only those of its platform", async () => {
    const [g1, g2] = [channel('gamma', { priority: 9 }), channel('gamma')];
    const built = plan([g1, g2], [validated('gamma', draftOn('gamma', { channelIds: [g2.id] }))]);
    expect(await built.candidates[0].route()).toBeNull();
    expect((await built.first())?.candidate.channel.id).toBe(g2.id);
  });

  it('no route takes the request: first() is null; the 503 says when the first route comes back', async () => {
    const [own, fal] = [channel('kling'), channel('fal')];
    const built = plan([own, fal], [validated('kling'), later('fal', () => Promise.reject(new Error('no')))], {
      openUntil: (id) => (id === own.id ? 9_000 : null),
    });
    expect(await built.first()).toBeNull();
    expect(built.firstRouteOpenUntil).toBe(9_000);
  });

  it("a provider retry's own route sends the task's stored request as it is, at the task's charge", async () => {
    const task = {
      platform: 'kling',
      request: { stored: true },
      action: 'a',
      properties: null,
      outputSize: '1280x720',
      quota: 70,
    } as unknown as TaskEntity;
    const route = storedRoute(task, adapter('kling'), 'kling-v1');
    const [candidate] = onOneRoute([channel('kling')], route);
    expect(await candidate.route()).toEqual({
      platform: 'kling',
      adapter: route.adapter,
      routeModel: 'kling-v1',
      draft: null,
      fields: { platform: 'kling', request: { stored: true }, action: 'a', properties: null, outputSize: '1280x720' },
      price: 70,
    });
  });
});

describe('firstServed: the route a request is validated with', () => {
  it('is the first route whose platform has a channel open to the group, whatever the breakers say; else the first', () => {
    const routes = [{ platform: 'kling' }, { platform: 'fal' }];
    const vipOnly = channel('kling', { groups: ['vip'] });
    const fal = channel('fal');
    const of = (group: string) => firstServed(routes, (route) => route.platform, channelTiers([vipOnly, fal], 'm', group));
    expect(of('vip').platform).toBe('kling');
    expect(of('default').platform).toBe('fal');
    expect(firstServed(routes, (route) => route.platform, []).platform).toBe('kling');
  });
});

describe('walkPlan: a hand-over over the candidates', () => {
  /** Walks `candidates` with breakers saying `admit`; every attempt fails unless `accepts` says otherwise. */
  async function walk(
    candidates: readonly Candidate[],
    admit: (id: number, deferred: boolean) => Admitted<string>,
    accepts: (id: number) => boolean = () => false,
  ) {
    const steps: string[] = [];
    const ended = await walkPlan(candidates, {
      goesOn: () => steps.length < 20,
      passedOver: async ({ channel: { id } }) => void steps.push(`passed over ${id}`),
      admit: async ({ channel: { id } }, deferred) => admit(id, deferred),
      attempt: async ({ channel: { id } }, route, admission) => {
        steps.push(`${admission} ${id} by ${route.platform}`);
        return accepts(id) ? id : undefined;
      },
    });
    return { ended, steps };
  }

  it('tries each candidate admitted by its breaker in turn until one takes it', async () => {
    const [a, b, c] = [channel('kling', { priority: 3 }), channel('kling', { priority: 2 }), channel('kling', { priority: 1 })];
    const { candidates } = plan([a, b, c], [validated('kling')]);
    expect(
      await walk(
        candidates,
        () => ({ admission: 'closed' }),
        (id) => id === b.id,
      ),
    ).toEqual({
      ended: b.id,
      steps: [`closed ${a.id} by kling`, `closed ${b.id} by kling`],
    });
  });

  it('a half-open channel whose one trial another submit holds is skipped, not passed over; a deferred one comes back once, after the others', async () => {
    const [halfOpen, streaking, healthy] = [
      channel('kling', { priority: 3 }),
      channel('kling', { priority: 2 }),
      channel('kling', { priority: 1 }),
    ];
    const { candidates } = plan([halfOpen, streaking, healthy], [validated('kling')]);
    const { ended, steps } = await walk(candidates, (id, deferred) =>
      id === halfOpen.id ? 'not_now' : id === streaking.id && !deferred ? 'defer' : { admission: deferred ? 'deferred' : 'closed' },
    );
    expect(ended).toBeUndefined();
    expect(steps).toEqual([`closed ${healthy.id} by kling`, `deferred ${streaking.id} by kling`]);
  });

  it('passes over, once each, the candidates of a route refusing the request, and sends the others by their own route', async () => {
    const [fal1, own, fal2] = [channel('fal', { priority: 3 }), channel('kling', { priority: 2 }), channel('fal', { priority: 1 })];
    const { candidates } = plan([fal1, own, fal2], [validated('kling'), later('fal', () => Promise.reject(new Error('no')))]);
    const { steps } = await walk(candidates, () => 'defer');
    expect(steps).toEqual([`passed over ${fal1.id}`, `passed over ${fal2.id}`]);
    const admitted = await walk(candidates, () => ({ admission: 'closed' }));
    expect(admitted.steps).toEqual([`passed over ${fal1.id}`, `closed ${own.id} by kling`, `passed over ${fal2.id}`]);
  });

  it('stops when the hand-over may not go on (its lease lost, or past its deadline)', async () => {
    const { candidates } = plan([channel('kling'), channel('kling')], [validated('kling')]);
    const tried: number[] = [];
    const ended = await walkPlan(candidates, {
      goesOn: () => tried.length === 0,
      passedOver: async () => undefined,
      admit: async () => ({ admission: null }),
      attempt: async ({ channel: { id } }) => void tried.push(id),
    });
    expect(ended).toBeUndefined();
    expect(tried).toHaveLength(1);
  });
});
