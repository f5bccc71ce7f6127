import { Inject, Injectable } from '@nestjs/common';
import { modelNotAllowed } from '../auth/api-keys.service';
import type { CatalogEntry } from '../catalog/catalog-entry';
import { AppError } from '../common/errors/app-error';
import { gatewayHopsOf } from '../common/http/gateway-hops';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { SourceVideoMode, SubmitForm, SubmitInput } from '../families/family';
import { ModelCatalog } from '../families/model-catalog.service';
import type { LaterDraft } from './dispatch/dispatch-plan';
import { DispatchPlanner } from './dispatch/dispatch-planner.service';
import { DraftSource, RouteDrafting, ServedRoute } from './route-drafting.service';
import { routeRequestOf } from './route-request';
import { commonFieldsOf } from './submit-common-fields';
import type { SubmitHeaders } from './submit-headers';
import type { TaskEntity } from './task.entity';
import type { Caller } from '../auth/caller';
import type { TaskDraft } from './task-draft';
import { SubmitQuote, TaskSubmitService } from './task-submit.service';
import { TaskSubmitFields } from './task-submit-fields';

/** The task record's idempotency_key column. */
const MAX_IDEMPOTENCY_KEY = 255;
const FORM_PATHS: Record<SubmitForm, string> = { flat: '/v1/videos', unified: '/v1/video/generations' };

/** A submit body made into a task draft, and what to let go of once it is submitted or quoted. */
interface Prepared {
  draft: TaskDraft;
  entry: CatalogEntry;
  /** The model's other routes taking the request (its failovers): their drafts built when the dispatch plan first needs them. */
  others: LaterDraft[];
  release: () => void;
}

/**
 * The one submit path of both surfaces, for every family, once each and in this order: the
 * gateway hops (a chain of gateways that loops ends here), the Idempotency-Key, the fields every
 * family shares (SubmitCommonFieldsDto), the model's catalog entry (400 unknown, 410 retired) and
 * the route that serves it, the key's model allowlist, verified-asset references, the fields other
 * modules own (`callback_url`), the family's request schema read against the entry (400s naming
 * the field, `seconds` when the client sent that); then TaskSubmitService prices, charges, records
 * and sends the task. A quote takes the same path and stops at the price. The caller was
 * authenticated by the surface's guard.
 */
@Injectable()
export class SubmitPipeline {
  constructor(
    private readonly drafting: RouteDrafting,
    private readonly catalog: ModelCatalog,
    private readonly planner: DispatchPlanner,
    private readonly tasks: TaskSubmitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly fields: TaskSubmitFields,
  ) {}

  async submit(input: SubmitInput, caller: Caller, headers: SubmitHeaders): Promise<TaskEntity> {
    const gatewayHops = gatewayHopsOf(headers.gatewayHops, this.config.maxGatewayHops);
    const { idempotencyKey } = headers;
    assertIdempotencyKey(idempotencyKey);
    const { draft, others, release } = await this.prepare(input, caller);
    try {
      return await this.tasks.submit({ ...draft, idempotencyKey, gatewayHops }, caller, others);
    } finally {
      release();
    }
  }

  /** What the submit of the same body would charge now: the same checks and price; nothing charged, sent or recorded. */
  async quote(input: SubmitInput, caller: Caller): Promise<SubmitQuote & { entry: CatalogEntry }> {
    const { draft, entry, others, release } = await this.prepare(input, caller);
    try {
      const quote = await this.tasks.quote(draft, caller, others);
      return { draft: quote.draft, quota: quote.quota, detail: quote.detail, entry };
    } finally {
      release();
    }
  }

  private async prepare(input: SubmitInput, caller: Caller): Promise<Prepared> {
    const { model: name, body, durationField } = await commonFieldsOf(input.body);
    const viewer = { group: caller.user.group, allowlist: caller.apiKey?.models ?? null };
    const entry = await this.catalog.usable(name, viewer);
    if (entry.status === 'deprecated')
      input.deprecated = { sunsetAt: entry.sunsetAt, replacement: await this.catalog.replacementFor(entry, viewer) };
    const { chosen, others } = await this.routesFor(entry, input, caller.user.group);
    const model = entry.id;
    if (!(await this.catalog.allows(viewer.allowlist, entry))) throw modelNotAllowed(model);
    this.drafting.refuseAssetsUnlessTaken(chosen, body, model);
    // Fields of other modules (`callback_url`) are checked here, before any charge, and never reach the family's schema.
    const { body: familyBody, recorders } = await this.fields.take(body, caller);
    // An alias is recorded as sent (the task shows what the client asked for); priced and routed as the entry.
    const askedModel = entry.aliases.includes(name) ? name : undefined;
    const source: DraftSource = { model, askedModel, input, familyBody, body, caller, entry, durationField };
    // The client's input is checked against the entry and this first route's family before any charge: its 400s are the client's.
    const { draft, release } = await this.drafting.draftOn(chosen, source);
    // Pinned channels (verified assets on one provider account) keep the task on its platform; so does a source video (its
    // mode is the chosen family's reading of it, which a retry from the stored request on another platform would not keep).
    const failovers = draft.channelIds || input.sourceVideo ? [] : others;
    const routeRequest = failovers.length > 0 ? routeRequestOf(input, familyBody) : null;
    // draftOn's draft is this request's own: completed in place rather than copied.
    const validated: TaskDraft = draft;
    validated.recordWithTask = recorders;
    if (routeRequest) validated.routeRequest = routeRequest;
    return {
      draft: validated,
      entry,
      others: failovers.map((other) => this.drafting.later(other, source)),
      release: () => release?.(),
    };
  }

  /**
   * The routes a submit of `entry` may go by: those whose family takes this form. `chosen`, the one
   * the request is validated and priced with, is the first whose platform has a channel open to the
   * caller's group (whatever the breakers say, so that a request's Idempotency-Key hash does not
   * change with health); else the first (whose submit then says that no channel is available).
   * The `others` are failovers: their channels are ranked with the chosen one's (DispatchPlanner).
   */
  private async routesFor(entry: CatalogEntry, input: SubmitInput, group: string): Promise<{ chosen: ServedRoute; others: ServedRoute[] }> {
    const { form } = input;
    const { routes, taking: byForm } = this.drafting.taking(entry, form);
    const taking = input.sourceVideo ? sourceVideoRoutes(entry, byForm, input.sourceVideo.mode) : byForm;
    if (taking.length === 0) {
      // The flat form is the one OpenAI clients try any model on: tell them where the model is served.
      const elsewhere = routes[0]?.family.forms[0];
      if (form === 'flat' && elsewhere)
        throw AppError.invalid(`model ${entry.id} is not served on ${FORM_PATHS.flat}; submit it on ${FORM_PATHS[elsewhere]}`, 'model');
      throw AppError.invalid(`model ${entry.id} is not served on ${FORM_PATHS[form]}`, 'model');
    }
    if (taking.length === 1) return { chosen: taking[0], others: [] };
    return this.planner.routeOrder(taking, entry.id, group);
  }
}

/**
 * The routes that make `mode` from a source video: the entry offers the mode and the route's family
 * makes it (SourceVideoMode). None: a 400 naming the mode, before any charge. A model served on the
 * form at all is checked first, so this is only reached with routes taking the form.
 */
function sourceVideoRoutes(entry: CatalogEntry, routes: ServedRoute[], mode: SourceVideoMode): ServedRoute[] {
  if (routes.length === 0) return routes;
  const serving = entry.modes.includes(mode) ? routes.filter(({ family }) => family.sourceVideoModes?.includes(mode)) : [];
  if (serving.length === 0) throw AppError.invalid(`no route of ${entry.id} serves ${mode}`, 'metadata.mode');
  return serving;
}

/** One rule on both surfaces: absent is fine; present, it is 1 to 255 characters (an empty header is a 400, never ignored). */
function assertIdempotencyKey(key: string | undefined): void {
  if (key !== undefined && (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY)) {
    throw AppError.invalid(`Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY} characters`, 'Idempotency-Key');
  }
}
