import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '../auth/caller';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { SOURCE_VIDEO_MODES, type SourceVideo, type SourceVideoMode, type SubmitInput } from '../families/family';
import { TaskQueries } from '../tasks/task-queries.service';
import { toFlatStatus } from '../tasks/task-status';
import type { TaskEntity } from '../tasks/task.entity';
import { SignedLinksService } from './signed-links.service';
import { VideoArchiveRepository } from './video-archive.repository';
import { VIDEO_STORE, type VideoStore } from './video-store';

/** What `POST /v1/videos/{id}/remix` takes (RemixVideoDto, already validated). */
export interface RemixRequest {
  prompt: string;
  seconds?: string | number;
  model?: string;
  metadata?: Record<string, unknown>;
}

const SOURCE_FIELD = 'metadata.source_task_id';
const MODE_FIELD = 'metadata.mode';

/**
 * A new task made from a finished one of the caller's (docs: "Video from video"): the source is
 * the caller's own completed task whose video the gateway's store holds, sent to the provider as
 * the gateway's signed link. Every refusal comes before any charge: 404 for a task that is not the
 * caller's, 409 for one not completed (or whose copy is not stored yet), 410 for a video that is
 * gone, 503 when providers could not reach the link (no PUBLIC_BASE_URL).
 */
@Injectable()
export class SourceVideos {
  constructor(
    private readonly tasks: TaskQueries,
    private readonly archives: VideoArchiveRepository,
    private readonly links: SignedLinksService,
    @Inject(VIDEO_STORE) private readonly store: VideoStore | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * A submit naming `metadata.source_task_id` (either surface): the source attached to the input,
   * `source_task_id` and `mode` (then ours, `video-edit` by default) taken out of the metadata the
   * family passes on. Without `source_task_id`, `metadata.mode` is the family's own (Kling's `std`).
   */
  async attachNamed(input: SubmitInput, caller: Caller): Promise<void> {
    const metadata = input.body.metadata;
    if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata) || !('source_task_id' in metadata)) return;
    const { source_task_id: id, mode, ...rest } = metadata as Record<string, unknown>;
    if (typeof id !== 'string' || id.trim() === '') throw AppError.invalid(`${SOURCE_FIELD} must be a task id`, SOURCE_FIELD);
    const { source } = await this.sourceOf(caller, id, SOURCE_FIELD, modeOf(mode));
    input.body = withMetadata(input.body, rest);
    input.sourceVideo = source;
  }

  /** `POST /v1/videos/{id}/remix`: a flat submit of the source's model (or the one asked) with the prompt, from the source. */
  async remixInput(caller: Caller, id: string, remix: RemixRequest): Promise<SubmitInput> {
    const { mode, ...rest } = remix.metadata ?? {};
    const { task, source: sourceVideo } = await this.sourceOf(caller, id, 'id', modeOf(mode));
    const body = withMetadata(
      { model: remix.model ?? task.model, prompt: remix.prompt, ...(remix.seconds !== undefined ? { seconds: remix.seconds } : {}) },
      rest,
    );
    return { form: 'flat', body, warnings: [], sourceVideo };
  }

  private async sourceOf(
    caller: Caller,
    id: string,
    field: string,
    mode: SourceVideoMode,
  ): Promise<{ task: TaskEntity; source: SourceVideo }> {
    const task = await this.tasks.findOwned(caller.user.id, id);
    if (task.status !== 'SUCCESS')
      throw new AppError(
        ErrorCode.Conflict,
        `task ${id} is not completed (status: ${toFlatStatus(task.status)}): only a completed video can be remixed`,
        {
          param: field,
        },
      );
    await this.assertStored(task, field);
    if (!this.config.publicBaseUrlSet && !this.config.simulator)
      throw new AppError(
        ErrorCode.ServiceUnavailable,
        'remixing is not available: PUBLIC_BASE_URL is not set, so no provider can fetch the video',
      );
    const source: SourceVideo = {
      taskId: task.taskId,
      field,
      mode,
      url: this.links.sourceUrl(task.taskId),
      seconds: secondsOf(task),
      size: task.outputSize,
      resolution: task.usage?.resolution ?? task.priceBasis?.asked.resolution ?? null,
    };
    return { task, source };
  }

  /** The video is sent from the gateway's store: a copy there, or why not. */
  private async assertStored(task: TaskEntity, field: string): Promise<void> {
    if (!this.store)
      throw new AppError(ErrorCode.Conflict, 'this gateway keeps no copy of videos (VIDEO_STORE=none): nothing can be remixed', {
        param: field,
      });
    const archive = await this.archives.summaryOf(task.id);
    if (archive.status === 'archived') return;
    if (archive.status === 'pending' && !archive.videoExpired)
      throw new AppError(ErrorCode.Conflict, `the video of task ${task.taskId} is not stored yet: try again in a few seconds`, {
        param: field,
        retryAfterSeconds: 5,
      });
    throw new AppError(ErrorCode.VideoExpired, `the video of task ${task.taskId} is gone: the gateway holds no copy of it`, {
      param: field,
    });
  }
}

function modeOf(mode: unknown): SourceVideoMode {
  if (mode === undefined) return 'video-edit';
  if (typeof mode === 'string' && (SOURCE_VIDEO_MODES as readonly string[]).includes(mode)) return mode as SourceVideoMode;
  throw AppError.invalid(`${MODE_FIELD} must be ${SOURCE_VIDEO_MODES.join(' or ')} with a source video`, MODE_FIELD);
}

/** The body with `metadata` replaced (left out when nothing is left of it). */
function withMetadata(body: Record<string, unknown>, metadata: Record<string, unknown>): Record<string, unknown> {
  const { metadata: _dropped, ...rest } = body;
  return Object.keys(metadata).length > 0 ? { ...rest, metadata } : rest;
}

/** The stored video's seconds: what the task was settled at, else what it asked. */
function secondsOf(task: TaskEntity): number {
  const asked = task.request?.duration ?? task.request?.seconds;
  return task.usageSeconds ?? task.usage?.seconds ?? (typeof asked === 'number' ? asked : 0);
}
