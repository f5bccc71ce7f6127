import { Inject, Injectable, Logger } from '@nestjs/common';
import { pipeline } from 'node:stream';
import { JobContext } from '../jobs/job-context';
import type { RetryPolicy } from '../jobs/leased-job';
import { RegisteredJob } from '../jobs/registered-job';
import type { TaskEntity } from '../tasks/task.entity';
import { TaskEndHooks } from '../tasks/task-end-hooks';
import { TaskReadRepository } from '../tasks/repositories/task-read.repository';
import { ProviderVideoError, ProviderVideoSource } from './provider-video-source.service';
import { ThumbnailMaker } from './thumbnail-maker';
import { DeliveredVideoSettlement } from './delivered-video-settlement';
import { outputExpired, type VideoArchiveEntity } from './video-archive.entity';
import { VideoArchiveRepository } from './video-archive.repository';
import { VideoBytesCheck, VideoBytesError, VideoTooLargeError } from './video-bytes';
import { VideoObjectKeys } from './video-object-keys';
import { VIDEO_STORE, type VideoStore } from './video-store';
import { TaskTransitionsService } from '../tasks/task-transitions.service';
import { FAILURE, failureReason } from '../upstream/failure-reason';
import { inTaskSpan } from '../telemetry/tracing';

/** Videos copied at once on this instance: each is a long stream, few at a time keep memory flat. */
const CONCURRENCY = 4;
const BATCH_SIZE = 16;
/** Base of the back-off after a failed copy (doubling up to five minutes, with jitter). */
const RETRY_BASE_MS = 10_000;
/** Failed copies in a row before giving up (about two and a half hours of tries). */
const MAX_FAILURES = 30;
const GONE = 'the provider no longer has the video, and it was not archived before';
/** Tries (the archive's retries) that must all end before a dead link is taken for a video that never was. */
const DEAD_LINK_TRIES = 3;
/** How long after its end a provider that keeps its outputs must still serve one (short-lived ones: until their expiry). */
const DELIVERY_WINDOW_MS = 3600_000;
/** Why a task the provider said was done fails after all: its link never served the video. */
export const UNDELIVERED = failureReason(FAILURE.generation, "the provider's link to the video served no video");
/** Why an archive ends without its copy: the task was deleted while the copy was being made. */
const DELETED_MEANWHILE = 'the task was deleted while its video was being kept';
/** Why the archive of a short-lived output stops once its link has died. */
export const EXPIRED = "the provider's link to the video expired before the gateway could keep a copy";

/** A claimed archive and the task whose video it copies. */
export interface ArchiveClaim {
  archive: VideoArchiveEntity;
  task: TaskEntity;
}

/**
 * Copies each finished task's video into the gateway's store, as a leased job (any instance may
 * take any task): streams it from the provider through a check of its length and content (an
 * MP4/QuickTime box first, never HTML) into the store, which commits only a complete object; then
 * makes a poster frame; then records `archived`. A failure is retried with back-off while the
 * provider still has the video; once it has not, or the video is larger than VIDEO_MAX_BYTES, the
 * task stays SUCCESS with archive `failed` (and its content keeps coming from the provider).
 * A task's end wakes the job; short-lived outputs (an adapter's `outputExpiresAfterMs`) go first in
 * its claim, and a try that fails past their expiry is the last.
 * Once stored (or once it cannot be), the task is settled on what was delivered (DeliveredVideoSettlement):
 * only then is it completed for its customer (the answers' status, `video.completed`).
 * Why 10 constructor dependencies: a leased job (its JobContext, the task-end hook that wakes it)
 * over one archive's steps (its claim, the task, the provider's or store's copy, the object key, the thumbnail, the
 * expired-output transition, the settlement), each used once in the copy; a split would pass them on.
 */
@Injectable()
export class VideoArchiveJob extends RegisteredJob<ArchiveClaim> {
  private readonly logger = new Logger('VideoArchive');

  constructor(
    @Inject(VIDEO_STORE) private readonly store: VideoStore | null,
    private readonly archives: VideoArchiveRepository,
    private readonly tasks: TaskReadRepository,
    private readonly provider: ProviderVideoSource,
    private readonly keys: VideoObjectKeys,
    private readonly thumbnails: ThumbnailMaker,
    private readonly transitions: TaskTransitionsService,
    private readonly settlement: DeliveredVideoSettlement,
    context: JobContext,
    taskEnds: TaskEndHooks,
  ) {
    super(context, { name: 'video-archive', batchSize: BATCH_SIZE, maxItemsPerRound: BATCH_SIZE * 4, concurrency: CONCURRENCY });
    // With a store, a task completes for its customer once its video is stored and settled here.
    if (store) taskEnds.settleAfterStoring();
    // So a video is copied as soon as its task ends, not at the next tick (short-lived outputs first, see claim).
    taskEnds.onEnd((task) => {
      if (task.status === 'SUCCESS' && task.settledAt === null) this.runSoon();
    });
  }

  /** Off without a store (`VIDEO_STORE=none`: tasks stay due, for a store configured later); follows the task sync's interval. */
  get intervalMs(): number {
    return this.store ? this.config.taskSyncIntervalMs : 0;
  }

  get storeKind(): 'file' | 's3' | 'none' {
    return this.store?.kind ?? 'none';
  }

  /** One round by hand (tests, admin): returns how many tasks were claimed. */
  archiveDueVideos(): Promise<number> {
    return this.store ? this.loop.runRound() : Promise.resolve(0);
  }

  async claim(limit: number): Promise<ArchiveClaim[]> {
    const now = this.clock.now();
    const archives = await this.archives.claimDue(this.claimOwner('a'), now, now + this.config.taskLeaseMs, limit);
    const tasks = new Map((await this.tasks.findByIds(archives.map((archive) => archive.taskRowId))).map((task) => [task.id, task]));
    return archives.flatMap((archive) => {
      const task = tasks.get(archive.taskRowId);
      return task ? [{ archive, task }] : [];
    });
  }

  handle(claim: ArchiveClaim): Promise<string> {
    return inTaskSpan('video.archive', claim.task.taskId, () => this.archiveOne(claim));
  }

  private async archiveOne({ archive, task }: ArchiveClaim): Promise<string> {
    const owner = archive.leaseOwner!;
    const heartbeat = setInterval(
      () => void this.archives.extendLease(task.id, owner, this.clock.now() + this.config.taskLeaseMs).catch(() => undefined),
      this.config.taskLeaseMs / 3,
    );
    try {
      const size = await this.copyVideo(task);
      const thumbnailSize = await this.makeThumbnail(task);
      // Settled before the archive is marked: a crash between the two copies again and settles nothing twice.
      await this.settlement.settleStored(task);
      if (await this.archives.markArchived(task.id, owner, { size, thumbnailSize, now: this.clock.now() })) return 'archived';
      // Deleted meanwhile (or taken over after a lost lease, whose owner records it): drop what a deleted task left,
      // and end its archive, so the retention waiting for it (an archive still pending) can delete the task's rows.
      if (await this.removeIfDeleted(task)) await this.archives.markFailed(task.id, owner, DELETED_MEANWHILE, this.clock.now());
      return 'superseded';
    } catch (error) {
      const now = this.clock.now();
      const expired = outputExpired(archive.expiresAt, now);
      if (error instanceof ProviderVideoError && error.reason === 'gone') {
        const verdict = this.deadLinkVerdict(archive, task, now);
        if (verdict === 'retry') {
          archive.error = GONE;
          throw error;
        }
        if (verdict === 'undelivered') {
          // The task first (refunded once, whoever gets there): a crash before the archive's mark leaves it to the next claim.
          await this.transitions.failUndelivered(task, UNDELIVERED);
          await this.archives.markFailed(task.id, owner, UNDELIVERED, now);
          return 'undelivered';
        }
        await this.settlement.settleAsAsked(task);
        await this.archives.markFailed(task.id, owner, expired ? EXPIRED : GONE, now);
        return 'gone';
      }
      // Past its provider's expiry no later try can find the video: no retry.
      if (expired) {
        this.logger.warn(`${this.describe({ archive, task })} stopped: ${EXPIRED} (${(error as Error)?.message ?? error})`);
        await this.settlement.settleAsAsked(task);
        await this.archives.markFailed(task.id, owner, EXPIRED, this.clock.now());
        return 'expired';
      }
      // Too large stays too large: no retry (the store already dropped what it got).
      if (error instanceof VideoTooLargeError) {
        this.logger.warn(`${this.describe({ archive, task })} stopped: ${error.message}`);
        await this.settlement.settleAsAsked(task);
        await this.archives.markFailed(task.id, owner, error.message, this.clock.now());
        return 'too_large';
      }
      archive.error = error instanceof VideoBytesError || error instanceof ProviderVideoError ? error.message : 'storing the video failed';
      throw error;
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * A definitive "no such video" (404, 410 or 403, also at the end of a redirect, from the stored
   * link and from a fresh one where the family gives one) while the provider should still serve it
   * (before a short-lived output's expiry; within DELIVERY_WINDOW_MS of the end otherwise): after
   * DEAD_LINK_TRIES tries (or the last one before the expiry) the video never was, and the task fails,
   * refunded. Past that, the video was there and is gone (`/content` 410 `video_expired`, charged).
   */
  private deadLinkVerdict(archive: VideoArchiveEntity, task: TaskEntity, now: number): 'retry' | 'undelivered' | 'gone' {
    const until = archive.expiresAt ?? (task.finishTime ?? now) + DELIVERY_WINDOW_MS;
    if (task.status !== 'SUCCESS' || now >= until) return 'gone';
    const lastTry = archive.failures + 1 >= DEAD_LINK_TRIES || now + RETRY_BASE_MS >= until;
    return lastTry ? 'undelivered' : 'retry';
  }

  handBack({ archive }: ArchiveClaim): Promise<void> {
    return this.archives.retryLater(archive.taskRowId, archive.leaseOwner!, archive.failures, this.clock.now(), null).then(() => undefined);
  }

  describe({ task }: ArchiveClaim): string {
    return `archive of task ${task.taskId}`;
  }

  oldestDueAt(now: number): Promise<number | null> {
    return this.archives.oldestDueAt(now);
  }

  readonly retry: RetryPolicy<ArchiveClaim> = {
    intervalMs: () => RETRY_BASE_MS,
    failures: ({ archive }) => archive.failures,
    later: async ({ archive, task }, failures, dueAt) => {
      if (failures >= MAX_FAILURES) {
        await this.settlement.settleAsAsked(task);
        await this.archives.markFailed(
          archive.taskRowId,
          archive.leaseOwner!,
          archive.error ?? 'archiving failed too often',
          this.clock.now(),
        );
      } else await this.archives.retryLater(archive.taskRowId, archive.leaseOwner!, failures, dueAt, archive.error);
    },
  };

  /** Provider -> check -> store; resolves with the stored size once the store committed the object. */
  private async copyVideo(task: TaskEntity): Promise<number> {
    const response = await this.provider.open(task);
    const contentType = String(response.headers['content-type'] ?? '');
    if (response.status !== 200 || /^text\/|html|json/i.test(contentType)) {
      response.data.destroy();
      throw new VideoBytesError(
        response.status !== 200
          ? `the provider answered HTTP ${response.status} to a whole download`
          : 'the provider answered a page, not a video',
      );
    }
    const announced = Number(response.headers['content-length']);
    const maxBytes = this.config.videoMaxBytes;
    if (Number.isSafeInteger(announced) && announced > maxBytes) {
      response.data.destroy();
      throw new VideoTooLargeError(maxBytes);
    }
    const check = new VideoBytesCheck(Number.isSafeInteger(announced) && announced > 0 ? announced : null, maxBytes);
    pipeline(response.data, check, () => undefined);
    await this.store!.write(this.keys.video(task.taskId), check, 'video/mp4');
    return check.bytes;
  }

  /** A poster frame of the stored copy; null (and no object) when the video cannot be decoded. */
  private async makeThumbnail(task: TaskEntity): Promise<number | null> {
    const image = await this.thumbnails.posterFrame(await this.store!.locate(this.keys.video(task.taskId)));
    if (!image) return null;
    await this.store!.writeSmall(this.keys.thumbnail(task.taskId), image, 'image/jpeg');
    return image.length;
  }

  /** Whether the task was deleted (by its owner or the retention), its objects then removed. */
  private async removeIfDeleted(task: TaskEntity): Promise<boolean> {
    const current = await this.tasks.findByTaskId(task.taskId);
    if (current && current.deletedAt === null) return false;
    await this.store!.remove(this.keys.video(task.taskId));
    await this.store!.remove(this.keys.thumbnail(task.taskId));
    return true;
  }
}
