import { namesOf } from '../../catalog/catalog-entry';
import { Injectable, Logger } from '@nestjs/common';
import { UserEntity } from '../../auth/user.entity';
import type { Caller } from '../../auth/caller';
import { PricingService } from '../../billing/pricing.service';
import { AppError, ErrorCode } from '../../common/errors/app-error';
import { Clock } from '../../common/runtime/clock';
import { FamilyRegistry } from '../../families/family-registry';
import { ModelCatalog } from '../../families/model-catalog.service';
import { ChannelBreakers } from '../../upstream/breaker/channel-breakers.service';
import { ChannelRouter, upstreamModelFor } from '../../upstream/channel-router.service';
import type { ChannelEntity, Platform } from '../../upstream/channel.entity';
import { routeModelOf } from '../draft-within-entry';
import { DraftSource, RouteDrafting, ServedRoute } from '../route-drafting.service';
import type { TaskDraft } from '../task-draft';
import type { TaskEntity } from '../task.entity';
import {
  Candidate,
  DispatchPlan,
  familyFieldsOfTask,
  firstServed,
  LaterDraft,
  planDispatch,
  PlanInput,
  PlannedRoute,
  RouteInput,
} from './dispatch-plan';

/**
 * The one place routing asks the channels and their breakers: which of a model's routes a request is
 * validated with (SubmitPipeline), and the dispatch plan (planDispatch) that the submit, its quote
 * and a provider retry consume, each worked out once from the router's cached channels, this
 * instance's copy of the breakers and the catalog.
 */
@Injectable()
export class DispatchPlanner {
  private readonly logger = new Logger('TaskSubmit');

  constructor(
    private readonly router: ChannelRouter,
    private readonly breakers: ChannelBreakers,
    private readonly pricing: PricingService,
    private readonly families: FamilyRegistry,
    private readonly catalog: ModelCatalog,
    private readonly drafting: RouteDrafting,
    private readonly clock: Clock,
  ) {}

  /**
   * Of the routes taking a request (more than one), the one it is validated and priced with first
   * (firstServed: the first whose platform has a channel open to `group`, whatever the breakers say),
   * and the others, its failovers.
   */
  async routeOrder(taking: readonly ServedRoute[], model: string, group: string): Promise<{ chosen: ServedRoute; others: ServedRoute[] }> {
    const platformOf = (served: ServedRoute) => served.family.platform;
    const entry = await this.catalog.find(model);
    const names = entry ? namesOf(entry) : model;
    const chosen = firstServed(taking, platformOf, await this.router.tiers(taking.map(platformOf), names, group));
    return { chosen, others: taking.filter((route) => route !== chosen) };
  }

  /**
   * A submit's plan (and its quote's): the validated draft's route first, then `others` (none when
   * the draft is pinned to channels of its own platform); 503 when no channel may take it now, with
   * Retry-After until the first open breaker lets a submit try again. Priced once, by the validated draft.
   */
  async forSubmit(draft: TaskDraft, caller: Caller, others: readonly LaterDraft[]): Promise<DispatchPlan> {
    const { group } = caller.user;
    // Channels pinned by the draft (the provider account holding its verified assets) are all of its own platform.
    const routes: RouteInput[] = [{ platform: draft.platform, adapter: this.families.adapter(draft.platform), validated: draft }];
    if (!draft.channelIds) for (const other of others) routes.push({ ...other, adapter: this.families.adapter(other.platform) });
    const plan = await this.plan(routes, draft.model, group, {
      pinned: draft.channelIds,
      price: () => this.pricing.quote({ ...draft.quote, group }),
      priceOf: async (other) => (await this.pricing.quote({ ...other.quote, group })).quota,
      passedOver: (platform, why) => {
        if ('error' in why) this.refused(platform, why.error);
        else this.logger.warn(`route ${platform} of ${draft.model} prices the request at ${why.priced}, not ${why.price}: passed over`);
      },
    });
    if (plan.candidates.length === 0) throw this.noChannel(draft.model, plan.openUntil);
    return plan;
  }

  /** The first candidate whose route takes the request; 503 when only routes refusing it are left (Retry-After from its own route's breakers). */
  async first(plan: DispatchPlan, model: string): Promise<{ candidate: Candidate; route: PlannedRoute }> {
    const first = await plan.first();
    if (first) return first;
    throw this.noChannel(model, plan.firstRouteOpenUntil);
  }

  /**
   * A provider retry's plan: every channel but `failed` of the task's own route (its stored request
   * as it is) and, when the task kept the client's request (a model with several routes), of the
   * model's other routes taking its form, each family's draft built from that request when a channel
   * of its platform is first tried; a route pricing it otherwise than the task's one charge is passed over.
   */
  async forRetry(task: TaskEntity, failed: ChannelEntity): Promise<DispatchPlan> {
    const entry = await this.catalog.find(task.model);
    const adapter = this.families.adapter(task.platform);
    const routes: RouteInput[] = [
      {
        platform: task.platform,
        adapter,
        stored: { routeModel: await this.ownRouteModel(task, failed), fields: familyFieldsOfTask(task) },
      },
    ];
    const kept = task.routeRequest;
    if (kept && entry) {
      // No client waits: the families read only who asks from the caller.
      const caller = { user: Object.assign(new UserEntity(), { id: task.userId, group: task.group }) };
      const body = kept.body;
      const source: DraftSource = {
        model: entry.id,
        input: { form: kept.form, body, warnings: [] },
        familyBody: body,
        body,
        caller,
        entry,
        durationField: 'duration',
      };
      for (const other of this.drafting.taking(entry, kept.form).taking) {
        if (other.family.platform === task.platform) continue;
        routes.push({ ...this.drafting.later(other, source), adapter: this.families.adapter(other.family.platform) });
      }
    }
    return this.plan(routes, task.model, task.group, {
      excluded: failed.id,
      price: () => Promise.resolve({ quota: task.quota, detail: '', basis: task.priceBasis }),
      priceOf: async (draft) => (await this.pricing.quote({ ...draft.quote, group: task.group })).quota,
      passedOver: (platform, why) => {
        if ('error' in why) this.refused(platform, why.error);
        else this.logger.warn(`route ${platform} of ${task.taskId} prices it at ${why.priced}, not ${task.quota}: passed over`);
      },
    });
  }

  /** planDispatch over the router's cached tiers of the routes' platforms and this instance's copy of the breakers. */
  private async plan(
    routes: RouteInput[],
    model: string,
    group: string,
    rest: Pick<PlanInput, 'pinned' | 'excluded' | 'price' | 'priceOf' | 'passedOver'>,
  ): Promise<DispatchPlan> {
    // A channel listing any of the model's names (an id a release used before) serves it.
    const entry = await this.catalog.find(model);
    const tiers = await this.router.tiers(platformsOf(routes), entry ? namesOf(entry) : model, group);
    return planDispatch({
      tiers,
      routes,
      openUntil: (channelId) => this.breakers.openUntil(channelId),
      random: this.router.random,
      ...rest,
    });
  }

  private refused(platform: Platform, error: unknown): void {
    this.logger.debug(`route ${platform} refuses the request: ${(error as Error)?.message ?? error}`);
  }

  /** The 503 of no channel to send to; with Retry-After until the first open breaker lets a submit try again, when one will. */
  private noChannel(model: string, openUntil: number | null): AppError {
    if (openUntil === null) return new AppError(ErrorCode.ServiceUnavailable, `no available channel for model ${model}`);
    return new AppError(ErrorCode.ServiceUnavailable, `every channel for model ${model} is failing, retry later`, {
      retryAfterSeconds: Math.max(1, Math.ceil((openUntil - this.clock.now()) / 1000)),
    });
  }

  /** What the task's own route sends upstream on a retry: the failed channel's name for it unless that was its own mapping. */
  private async ownRouteModel(task: TaskEntity, failed: ChannelEntity): Promise<string> {
    if (upstreamModelFor(failed, task.model, '') === '') return task.upstreamModel;
    const route = (await this.catalog.find(task.model))?.routes.find((candidate) => candidate.platform === task.platform);
    return route ? routeModelOf(route, {}) : this.families.adapter(task.platform).defaultUpstreamModel(task.model);
  }
}

function platformsOf(routes: readonly RouteInput[]): Platform[] {
  return routes.map((route) => route.platform);
}
