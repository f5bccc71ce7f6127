import { Inject, Injectable, Logger } from '@nestjs/common';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { TaskEntity } from '../tasks/task.entity';
import { ProviderVideoSource } from './provider-video-source.service';
import { ThumbnailMaker } from './thumbnail-maker';
import { VideoBytesCheck } from './video-bytes';

/** A poster frame made on demand is kept this long, so a page of thumbnails does not download a video per request. */
const KEEP_MS = 60_000;
const KEEP_AT_MOST = 100;

/**
 * The poster frame of a completed video that is not archived yet (archiving, which makes the stored
 * one, follows the completion by a moment): the provider's video is copied to a temporary file and
 * ffmpeg takes a frame from it. Requests for one task at once share one download; the frame is kept
 * for a minute. Null when the video cannot be had or decoded.
 */
@Injectable()
export class OnDemandThumbnail {
  private readonly logger = new Logger('Thumbnail');
  private readonly made = new Map<string, { at: number; image: Promise<Buffer | null> }>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly provider: ProviderVideoSource,
    private readonly thumbnails: ThumbnailMaker,
  ) {}

  posterFrame(task: TaskEntity): Promise<Buffer | null> {
    const now = Date.now();
    for (const [id, entry] of this.made) if (now - entry.at > KEEP_MS || this.made.size > KEEP_AT_MOST) this.made.delete(id);
    const kept = this.made.get(task.taskId);
    if (kept) return kept.image;
    const image = this.make(task);
    this.made.set(task.taskId, { at: now, image });
    // A failure is not kept: the next request tries again.
    void image.then((result) => result === null && this.made.delete(task.taskId));
    return image;
  }

  private async make(task: TaskEntity): Promise<Buffer | null> {
    const dir = await mkdtemp(join(tmpdir(), 'gw-thumb-'));
    try {
      const response = await this.provider.open(task);
      const contentType = String(response.headers['content-type'] ?? '');
      if (response.status !== 200 || /^text\/|html|json/i.test(contentType)) {
        response.data.destroy();
        return null;
      }
      const path = join(dir, 'video.mp4');
      await pipeline(response.data, new VideoBytesCheck(null, this.config.videoMaxBytes), createWriteStream(path));
      return await this.thumbnails.posterFrame(path);
    } catch (error) {
      this.logger.debug(`no poster frame on demand for ${task.taskId}: ${(error as Error)?.message ?? error}`);
      return null;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
