import { Injectable } from '@nestjs/common';
import type { CatalogEntry, CatalogRoute } from '../catalog/catalog-entry';
import type { FamilyDefinition, SourceVideo, SubmitForm, SubmitInput } from '../families/family';
import { AppError } from '../common/errors/app-error';
import { FamilyRegistry } from '../families/family-registry';
import { ModelCatalog } from '../families/model-catalog.service';
import { refuseAssetReferences } from './asset-reference-rule';
import { assertDraftWithinEntry, routeModelOf } from './draft-within-entry';
import type { LaterDraft } from './dispatch/dispatch-plan';
import { DurationField, namingAskedModel, namingSentDurationField } from './submit-common-fields';
import type { Caller } from '../auth/caller';
import type { TaskDraft } from './task-draft';

/** One of the model's routes, with the family that serves it. */
export interface ServedRoute {
  family: FamilyDefinition;
  route: CatalogRoute;
}

/** What a route's draft is built from: the client's request as the submit pipeline read it. */
export interface DraftSource {
  model: string;
  /** The name the client sent when it is one of the entry's aliases: the task records it. */
  askedModel?: string;
  input: SubmitInput;
  /** The body without the fields other modules took (`callback_url`). */
  familyBody: Record<string, unknown>;
  /** The body as sent, for the verified-asset rule. */
  body: Record<string, unknown>;
  caller: Caller;
  entry: CatalogEntry;
  durationField: DurationField;
}

/**
 * A client's request made into the draft of one route of its model, by that route's family and
 * within the entry: at submit for the route it is validated with, and for the others when a submit
 * (or a provider retry) tries a channel of theirs.
 */
@Injectable()
export class RouteDrafting {
  private readonly takingByEntry = new WeakMap<CatalogEntry, Map<SubmitForm, { routes: ServedRoute[]; taking: ServedRoute[] }>>();

  constructor(
    private readonly families: FamilyRegistry,
    private readonly catalog: ModelCatalog,
  ) {}

  /** The entry's routes whose family takes `form`, in the entry's order (worked out once per entry and form: a catalog snapshot's entries never change). */
  taking(entry: CatalogEntry, form: SubmitForm): { routes: ServedRoute[]; taking: ServedRoute[] } {
    let byForm = this.takingByEntry.get(entry);
    if (!byForm) this.takingByEntry.set(entry, (byForm = new Map()));
    let served = byForm.get(form);
    if (!served) {
      const routes = this.catalog.routesOf(entry);
      byForm.set(form, (served = { routes, taking: routes.filter(({ family }) => family.forms.includes(form)) }));
    }
    return served;
  }

  /** Verified-asset references (`asset://`) only reach the families that take them. */
  refuseAssetsUnlessTaken({ family }: ServedRoute, body: Record<string, unknown>, model: string): void {
    if (!family.takesVerifiedAssets) refuseAssetReferences(body, model, this.families.assetModels());
  }

  /** `served`'s family's draft of the request, within the entry; a 400 naming the field when that family or the entry refuses it. */
  async draftOn(served: ServedRoute, source: DraftSource): Promise<{ draft: TaskDraft; release?: () => void }> {
    const { family, route } = served;
    const { model, input, familyBody, caller, entry, durationField } = source;
    const { draft: familyDraft, release } = await this.families
      .draftsOf(family.platform)
      .prepare(model, { ...input, body: familyBody }, caller, { entry, route })
      .catch((error: unknown) => {
        throw namingAskedModel(namingSentDurationField(error, durationField), entry.id, source.askedModel);
      });
    const draft: TaskDraft = familyDraft;
    try {
      if (input.sourceVideo) recordSourceVideo(draft, input.sourceVideo, family);
      assertDraftWithinEntry(draft, entry, durationField);
      // Each family makes a fresh draft per call: the route's model is set on it rather than on a copy.
      draft.routeModel = routeModelOf(route, draft);
      if (source.askedModel) draft.askedModel = source.askedModel;
      return { draft, release };
    } catch (error) {
      release?.();
      throw namingAskedModel(error, entry.id, source.askedModel);
    }
  }

  /** Another route than the one the request was validated with: its draft built when the dispatch plan first needs it. */
  later(served: ServedRoute, source: DraftSource): LaterDraft {
    return {
      platform: served.family.platform,
      build: async () => {
        this.refuseAssetsUnlessTaken(served, source.body, source.model);
        // Its own warnings: what another family would change is not said of the route the client was answered by.
        return this.draftOn(served, { ...source, input: { ...source.input, warnings: [] } });
      },
    };
  }
}

/** A draft made from a source video makes its mode (a family reading it as anything else is refused) and records where it came from. */
function recordSourceVideo(draft: TaskDraft, source: SourceVideo, family: FamilyDefinition): void {
  if (draft.mode !== source.mode)
    throw AppError.invalid(`${family.platform} does not make ${source.mode} from ${source.taskId}`, 'metadata.mode');
  draft.properties = { ...draft.properties, source_task_id: source.taskId };
}
