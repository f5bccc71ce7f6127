import type { FamilyRegistry } from '../../families/family-registry';
import type { ChannelEntity, Platform } from '../../upstream/channel.entity';
import type { ModelRoutes } from '../model-routes';
import type { TaskDraft } from '../task-draft';
import type { FamilyFields, RouteSending, SubmitRoutes } from './route-sending';

/**
 * How a first submit sends its task to each candidate: by the route of the candidate's platform
 * (ModelRoutes), with that family's adapter and request, each route worked out once. A route's draft
 * must cost what the validated one does: the client is held one price, the model's, whichever
 * platform runs it, so a route whose family reads the request into another price is passed over.
 * `own`, when given, is how the channels of the routes' own platform are sent (a provider retry:
 * the task's stored request as it is).
 */
export class SendingByRoute implements SubmitRoutes {
  private readonly sendings = new Map<Platform, Promise<RouteSending | null>>();

  constructor(
    private readonly routes: ModelRoutes,
    private readonly families: FamilyRegistry,
    private readonly pricedAlike: (draft: TaskDraft) => Promise<boolean>,
    private readonly own?: RouteSending,
  ) {}

  sendingOn(channel: ChannelEntity): Promise<RouteSending | null> {
    let sending = this.sendings.get(channel.platform);
    if (!sending) {
      sending = this.sendingFor(channel.platform);
      this.sendings.set(channel.platform, sending);
    }
    return sending;
  }

  /** The draft a task is recorded with when `channel` is the first tried; null when it is passed over. */
  async draftFor(channel: ChannelEntity): Promise<TaskDraft | null> {
    return (await this.sendingOn(channel)) ? this.routes.draftOn(channel.platform) : null;
  }

  private async sendingFor(platform: Platform): Promise<RouteSending | null> {
    if (this.own && platform === this.routes.own) return this.own;
    const draft = await this.routes.draftOn(platform);
    if (!draft) return null;
    if (draft !== this.routes.validated && !(await this.pricedAlike(draft))) return null;
    const adapter = this.families.adapter(platform);
    return { adapter, routeModel: draft.routeModel ?? adapter.defaultUpstreamModel(draft.model), fields: familyFieldsOf(draft) };
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
