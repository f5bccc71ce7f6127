import type { Quote } from '../../billing/pricing.service';
import { rankedChannels } from '../../upstream/channel-ranking';
import type { ChannelEntity, Platform } from '../../upstream/channel.entity';
import type { UpstreamAdapter } from '../../upstream/upstream-adapter';
import type { TaskDraft } from '../task-draft';
import type { TaskEntity } from '../task.entity';

/*
 * The words of routing, here and in upstream/, one thing each:
 * - route: one of a catalog entry's routes, the model served on one platform by that platform's
 *   family (CatalogRoute; with its family, ServedRoute). Nothing else is called a route (an HTTP
 *   path is the http module's "route", and never meets these);
 * - channel: an operator's provider account on a platform (ChannelEntity);
 * - draft: a route's family's reading of the client's request (TaskDraft), priced and sent;
 * - candidate: a channel with the route of its platform, in the order a submit tries them;
 * - dispatch plan: the candidates of one submit (and its quote) or one provider retry, worked out
 *   once by planDispatch over the cached channels, their breakers' states and the model's routes.
 */

/** A task's fields that depend on the family it is sent by: rewritten when a hand-over moves it to a channel of another platform. */
export type FamilyFields = Pick<TaskEntity, 'platform' | 'request' | 'action' | 'properties' | 'outputSize'>;

/** A route as this request is sent by it: its family's adapter, the model's name on it, the request and what it costs. */
export interface PlannedRoute {
  platform: Platform;
  adapter: UpstreamAdapter;
  /** The model's name on the route (a channel's model_mapping overrides it). */
  routeModel: string;
  /** The route's draft of the client's request; null: the task's stored request (a provider retry, a resubmit). */
  draft: TaskDraft | null;
  /** What the task carries on this route. */
  fields: FamilyFields;
  /** Only these channels may take it (the draft's verified assets are on one provider account). */
  channelIds?: readonly number[];
  /** What the request costs on this route: the plan's price (a route pricing it otherwise is passed over). */
  price: number;
}

/** Another route's draft of the request, built when a candidate of its platform is first tried; throws when that family refuses the request. */
export interface LaterDraft {
  platform: Platform;
  build(): Promise<{ draft: TaskDraft; release?: () => void }>;
}

/** A route given to the plan, with its family's adapter. */
export type RouteInput = { platform: Platform; adapter: UpstreamAdapter } & (
  | { /** The route the client's request was validated and priced with: never refused. */ validated: TaskDraft }
  | { /** The task's own route and stored request (a provider retry, a resubmit). */ stored: { routeModel: string; fields: FamilyFields } }
  | Pick<LaterDraft, 'build'>
);

/** What a plan is worked out from; nothing in it is read twice, and only `price`, `priceOf` and the routes' builds are awaited. */
export interface PlanInput {
  /** The eligible channels of the routes' platforms, one list per priority, highest first (ChannelRouter.tiers). */
  tiers: readonly (readonly ChannelEntity[])[];
  /** The model's routes, the first the request's own (its channels' breakers say when a refused submit may come back). */
  routes: readonly RouteInput[];
  /** When the channel's breaker lets a submit try it again; null when it is not open. */
  openUntil(channelId: number): number | null;
  /** The weighted shuffle's source within one priority. */
  random(): number;
  /** Only these channels (pinned by the request's draft). */
  pinned?: readonly number[];
  /** Never this one (the channel that just failed the task). */
  excluded?: number;
  /** The request's price on its first route: the one price of the model, whichever route runs it. Asked once, when first needed. */
  price(): Promise<Quote>;
  /** Another route's price of its draft. */
  priceOf(draft: TaskDraft): Promise<number>;
  /** A route is passed over: its family refuses the request (`error`), or prices it otherwise (`priced`). For the log. */
  passedOver?(platform: Platform, why: { error: unknown } | { draft: TaskDraft; priced: number; price: number }): void;
}

export interface Candidate {
  readonly channel: ChannelEntity;
  /** Its route as the request goes by it (worked out once per route); null when that route's family refuses the request, prices it otherwise, or pins it to other channels. */
  route(): Promise<PlannedRoute | null>;
}

export interface DispatchPlan {
  /** Best first: highest priority, weighted-random within one, their breakers not open. */
  readonly candidates: readonly Candidate[];
  /** When the first open breaker among the routes' channels lets a submit try again; null when none is open. */
  readonly openUntil: number | null;
  /** The same of the first route's channels when none of them is a candidate (the 503 when only routes refusing the request are left). */
  readonly firstRouteOpenUntil: number | null;
  /** The request's price (PlanInput.price, asked once). */
  price(): Promise<Quote>;
  /** The first candidate whose route takes the request: the channel and route a task is recorded with. */
  first(): Promise<{ candidate: Candidate; route: PlannedRoute } | null>;
  /** Once the submit is over: what the routes' drafts staged. */
  release(): void;
}

/**
 * A submit's candidates, worked out once: the tiers ranked (priority, then weights by `random`),
 * pinned and excluded channels left out, those whose breaker is open left out (and their reopening
 * kept for the 503); each candidate goes by the route of its platform, resolved on first use: the
 * validated draft as it is, the stored request as it is, another family's draft built and priced (a
 * route whose family refuses the request, or that prices it otherwise, is passed over: the client is
 * held one price). A half-open or streaking breaker is the hand-over's to admit (walkPlan).
 */
export function planDispatch(input: PlanInput): DispatchPlan {
  const byPlatform = new Map<Platform, RouteInput>();
  for (const route of input.routes) if (!byPlatform.has(route.platform)) byPlatform.set(route.platform, route);
  const firstPlatform = input.routes[0]?.platform;
  const resolved = new Map<Platform, Promise<PlannedRoute | null>>();
  const releases: Array<() => void> = [];
  let price: Promise<Quote> | undefined;
  const priceOnce = () => (price ??= input.price());

  const resolve = async (route: RouteInput): Promise<PlannedRoute | null> => {
    const { platform, adapter } = route;
    if ('validated' in route) {
      const draft = route.validated;
      const routeModel = draft.routeModel ?? adapter.defaultUpstreamModel(draft.model);
      const planned: PlannedRoute = {
        platform,
        adapter,
        routeModel,
        draft,
        fields: familyFieldsOf(draft),
        price: (await priceOnce()).quota,
      };
      if (draft.channelIds) planned.channelIds = draft.channelIds;
      return planned;
    }
    if ('stored' in route) return { platform, adapter, ...route.stored, draft: null, price: (await priceOnce()).quota };
    let built: { draft: TaskDraft; release?: () => void };
    try {
      built = await route.build();
    } catch (error) {
      // The client's input passed the entry and the first route's rules: a route whose family says no
      // to it is passed over, and the submit goes on with the others rather than failing the client.
      input.passedOver?.(platform, { error });
      return null;
    }
    const { draft, release } = built;
    if (release) releases.push(release);
    const { quota } = await priceOnce();
    const priced = await input.priceOf(draft);
    if (priced !== quota) {
      input.passedOver?.(platform, { draft, priced, price: quota });
      return null;
    }
    const routeModel = draft.routeModel ?? adapter.defaultUpstreamModel(draft.model);
    const planned: PlannedRoute = { platform, adapter, routeModel, draft, fields: familyFieldsOf(draft), price: priced };
    if (draft.channelIds) planned.channelIds = draft.channelIds;
    return planned;
  };

  const routeOf = async (channel: ChannelEntity, route: RouteInput): Promise<PlannedRoute | null> => {
    let planned = resolved.get(route.platform);
    if (!planned) resolved.set(route.platform, (planned = resolve(route)));
    const taken = await planned;
    return taken?.channelIds && !taken.channelIds.includes(channel.id) ? null : taken;
  };

  const candidates: Candidate[] = [];
  let openUntil: number | null = null;
  let firstRouteOpen: number | null = null;
  let firstRouteServes = false;
  for (const channel of rankedChannels(input.tiers, input.random)) {
    if (input.pinned && !input.pinned.includes(channel.id)) continue;
    const until = input.openUntil(channel.id);
    if (until !== null) {
      openUntil = openUntil === null ? until : Math.min(openUntil, until);
      if (channel.platform === firstPlatform) firstRouteOpen = firstRouteOpen === null ? until : Math.min(firstRouteOpen, until);
      continue;
    }
    const route = byPlatform.get(channel.platform);
    if (channel.id === input.excluded || !route) continue;
    if (channel.platform === firstPlatform) firstRouteServes = true;
    candidates.push({ channel, route: () => routeOf(channel, route) });
  }

  return {
    candidates,
    openUntil,
    firstRouteOpenUntil: firstRouteServes ? null : firstRouteOpen,
    price: priceOnce,
    async first() {
      for (const candidate of candidates) {
        const route = await candidate.route();
        if (route) return { candidate, route };
      }
      return null;
    },
    release() {
      for (const release of releases.splice(0)) release();
    },
  };
}

/** The candidates of a hand-over to fixed channels by one route (a resubmit after a crash goes to the channel that had the task). */
export function onOneRoute(channels: readonly ChannelEntity[], route: PlannedRoute): Candidate[] {
  const planned = Promise.resolve(route);
  return channels.map((channel) => ({ channel, route: () => planned }));
}

/** The task's own route with its stored request as it is. */
export function storedRoute(task: TaskEntity, adapter: UpstreamAdapter, routeModel: string): PlannedRoute {
  return { platform: task.platform, adapter, routeModel, draft: null, fields: familyFieldsOfTask(task), price: task.quota };
}

/**
 * The route that goes first: the first whose platform has a channel open to the caller's group in
 * `tiers` (whatever the breakers say, so that a request's Idempotency-Key hash does not change with
 * health); else the first (whose submit then says that no channel is available).
 */
export function firstServed<R>(routes: readonly R[], platformOf: (route: R) => Platform, tiers: readonly (readonly ChannelEntity[])[]): R {
  const served = new Set<Platform>();
  for (const tier of tiers) for (const channel of tier) served.add(channel.platform);
  return routes.find((route) => served.has(platformOf(route))) ?? routes[0];
}

/** What a draft sets on its task that depends on its family. */
export function familyFieldsOf(draft: TaskDraft): FamilyFields {
  return {
    platform: draft.platform,
    request: draft.request,
    action: draft.action,
    properties: draft.properties ?? null,
    outputSize: draft.size ?? null,
  };
}

/** What a task carries that depends on its family, as it is now. */
export function familyFieldsOfTask(task: TaskEntity): FamilyFields {
  const { platform, request, action, properties, outputSize } = task;
  return { platform, request, action, properties, outputSize };
}

/** What a candidate's breaker says to one attempt: admitted (`admission`, to record its end with), try it after the others, or not now. */
export type Admitted<A> = { admission: A } | 'defer' | 'not_now';

/** What a hand-over does at each step of its walk over the plan (HandToProvider). */
export interface PlanWalker<A, R> {
  /** Asked before each candidate: false ends the walk (the lease lost, or its deadline past). */
  goesOn(): boolean;
  /** A candidate whose route does not take the request: passed over, never sent (said once). */
  passedOver(candidate: Candidate): Promise<void>;
  /** `deferred`: the candidate's second turn, after the others. */
  admit(candidate: Candidate, deferred: boolean): Promise<Admitted<A>>;
  /** One attempt: a result ends the walk, undefined goes on to the next candidate. */
  attempt(candidate: Candidate, route: PlannedRoute, admission: A): Promise<R | undefined>;
}

/**
 * The candidates in turn until an attempt ends the walk: a candidate whose route refuses the request
 * is passed over; one its breaker defers (a streak of faults, enough submits already under way) comes
 * back once, after the others; one its breaker does not admit (open, or its half-open trial taken) is skipped.
 */
export async function walkPlan<A, R>(candidates: readonly Candidate[], walker: PlanWalker<A, R>): Promise<R | undefined> {
  const turns = candidates.map((candidate) => ({ candidate, deferred: false }));
  for (const { candidate, deferred } of turns) {
    if (!walker.goesOn()) return undefined;
    const route = await candidate.route();
    if (!route) {
      if (!deferred) await walker.passedOver(candidate);
      continue;
    }
    const admitted = await walker.admit(candidate, deferred);
    if (admitted === 'defer') {
      if (!deferred) turns.push({ candidate, deferred: true });
      continue;
    }
    if (admitted === 'not_now') continue;
    const ended = await walker.attempt(candidate, route, admitted.admission);
    if (ended !== undefined) return ended;
  }
  return undefined;
}
