import type { FamilyRegistry } from '../../families/family-registry';
import type { ChannelEntity, Platform } from '../../upstream/channel.entity';
import type { ModelRoutes } from '../model-routes';
import type { TaskDraft } from '../task-draft';
import type { FamilyFields, RouteSending, SubmitRoutes } from './route-sending';

/** How a platform's channels are sent, and those of them its draft is pinned to, if any (verified assets on one provider account). */
type RouteOnPlatform = RouteSending & { channelIds?: number[] };

/**
 * How a first submit sends its task to each candidate: by the route of the candidate's platform
 * (ModelRoutes), with that family's adapter and request, each route worked out once. A route's draft
 * must cost what the validated one does: the client is held one price, the model's, whichever
 * platform runs it, so a route whose family reads the request into another price is passed over.
 * `own`, when given, is how the channels of the routes' own platform are sent (a provider retry:
 * the task's stored request as it is).
 */
export class SendingByRoute implements SubmitRoutes {
  private readonly sendings = new Map<Platform, Promise<RouteOnPlatform | null>>();

  constructor(
    private readonly routes: ModelRoutes,
    private readonly families: FamilyRegistry,
    private readonly pricedAlike: (draft: TaskDraft) => Promise<boolean>,
    private readonly own?: RouteSending,
  ) {}

  async sendingOn(channel: ChannelEntity): Promise<RouteSending | null> {
    let pending = this.sendings.get(channel.platform);
    if (!pending) {
      pending = this.sendingFor(channel.platform);
      this.sendings.set(channel.platform, pending);
    }
    const sending = await pending;
    const pinned = sending?.channelIds;
    return pinned && !pinned.includes(channel.id) ? null : sending;
  }

  /** The draft a task is recorded with when `channel` is the first tried; null when it is passed over. */
  async draftFor(channel: ChannelEntity): Promise<TaskDraft | null> {
    return (await this.sendingOn(channel)) ? this.routes.draftOn(channel.platform) : null;
  }

  private async sendingFor(platform: Platform): Promise<RouteOnPlatform | null> {
    if (this.own && platform === this.routes.own) return this.own;
    const draft = await this.routes.draftOn(platform);
    if (!draft) return null;
    if (draft !== this.routes.validated && !(await this.pricedAlike(draft))) return null;
    const adapter = this.families.adapter(platform);
    const routeModel = draft.routeModel ?? adapter.defaultUpstreamModel(draft.model);
    return { adapter, routeModel, fields: familyFieldsOf(draft), ...(draft.channelIds ? { channelIds: draft.channelIds } : {}) };
  }
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
