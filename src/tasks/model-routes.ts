import { Logger } from '@nestjs/common';
import type { Platform } from '../upstream/channel.entity';
import type { TaskDraft } from './task-draft';

/** Another route of the submitted model: its family's draft of the client's request, built on demand. */
export interface LazyRoute {
  platform: Platform;
  /** Throws when that family refuses the request (its own rules); `release` lets go of what it staged. */
  build(): Promise<{ draft: TaskDraft; release?: () => void }>;
}

const logger = new Logger('TaskSubmit');

/**
 * The drafts of one request on each route of its model (a Kling model served by Kling directly and
 * on fal): the one on `own` platform (at submit, the draft the client's input was validated and
 * priced with; a provider retry has none, the task's stored request being that route's), and the
 * others, built only when a candidate channel of their platform is tried, so a submit the first
 * route takes pays for no other family's schema.
 */
export class ModelRoutes {
  private readonly built = new Map<Platform, Promise<TaskDraft | null>>();
  private readonly releases: Array<() => void> = [];

  constructor(
    readonly own: Platform,
    readonly validated: TaskDraft | null,
    private readonly others: readonly LazyRoute[] = [],
  ) {}

  /** A submit's routes: its validated draft's, and the others. */
  static of(validated: TaskDraft, others: readonly LazyRoute[] = []): ModelRoutes {
    return new ModelRoutes(validated.platform, validated, others);
  }

  /** The platforms whose channels may take the task, the own route's first. */
  platforms(): Platform[] {
    return [this.own, ...this.others.map((route) => route.platform)];
  }

  /** The draft on `platform`'s route; null when that route's family refuses the request (another route serves it then). */
  draftOn(platform: Platform): Promise<TaskDraft | null> {
    if (platform === this.own) return Promise.resolve(this.validated);
    let draft = this.built.get(platform);
    if (!draft) {
      draft = this.build(platform);
      this.built.set(platform, draft);
    }
    return draft;
  }

  /** Once the submit is over: what the routes built staged for it. */
  release(): void {
    for (const release of this.releases.splice(0)) release();
  }

  private async build(platform: Platform): Promise<TaskDraft | null> {
    const route = this.others.find((other) => other.platform === platform);
    if (!route) return null;
    try {
      const { draft, release } = await route.build();
      if (release) this.releases.push(release);
      return draft;
    } catch (error) {
      // The client's input passed the model's entry and the first route's rules: a route whose family
      // says no to it is passed over, and the submit goes on with the others rather than failing the client.
      logger.debug(`route ${platform} refuses the request: ${(error as Error)?.message ?? error}`);
      return null;
    }
  }
}
