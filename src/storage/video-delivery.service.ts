import { Inject, Injectable, Logger } from '@nestjs/common';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { PassThrough, Readable } from 'node:stream';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock, toUnixSeconds } from '../common/runtime/clock';
import type { TaskEntity } from '../tasks/task.entity';
import { parseByteRange } from './byte-range';
import { ProviderVideoError, ProviderVideoSource, RELAY_BUFFER_BYTES } from './provider-video-source.service';
import { OnDemandThumbnail } from './on-demand-thumbnail.service';
import { looksLikeText } from './video-bytes';
import { outputExpired, type VideoArchiveEntity } from './video-archive.entity';
import { VideoArchiveRepository } from './video-archive.repository';
import { VideoObjectKeys } from './video-object-keys';
import { VIDEO_STORE, type ByteRange, type VideoStore } from './video-store';

const PASSED_HEADERS = ['content-length', 'content-range', 'last-modified', 'etag'];

/** An opened video (or thumbnail): status, headers, and the body (none for 304, 416 and HEAD), or a local file's byte span. */
export interface VideoStream {
  status: number;
  headers: Record<string, string>;
  body: Readable | null;
  file?: { path: string; start: number; end: number };
}

export interface DeliveryRequest {
  variant: unknown;
  range?: string;
  ifNoneMatch?: string;
  ifRange?: string;
  head?: boolean;
}

/**
 * Serves a finished task's video: from the gateway's store once archived (Range 206, 416, HEAD,
 * ETag/Last-Modified, streamed at disk speed), from the provider until then (Range passed on, and
 * never a page that is not a video). `variant=thumbnail` is the poster frame made when archiving.
 * A video without a copy is gone once its provider link has expired (answered without asking the
 * provider) or the provider says it discarded it: 410 `video_expired`.
 */
@Injectable()
export class VideoDeliveryService {
  private readonly logger = new Logger('VideoDelivery');

  constructor(
    @Inject(VIDEO_STORE) private readonly store: VideoStore | null,
    private readonly keys: VideoObjectKeys,
    private readonly provider: ProviderVideoSource,
    private readonly archives: VideoArchiveRepository,
    private readonly onDemand: OnDemandThumbnail,
    private readonly clock: Clock,
  ) {}

  async open(task: TaskEntity, request: DeliveryRequest): Promise<VideoStream> {
    const variant = request.variant ?? 'video';
    if (variant !== 'video' && variant !== 'thumbnail') throw AppError.notFound(`video ${task.taskId} has no ${String(variant)} variant`);
    const archive = await this.archives.findOf(task.id);
    const archived = this.store !== null && archive?.status === 'archived' && archive.size !== null;
    if (variant === 'thumbnail') {
      if (!archived) {
        this.refuseIfExpired(task, archive);
        return this.thumbnailMeanwhile(task, archive, request);
      }
      if (archive.thumbnailSize === null) throw AppError.notFound(`video ${task.taskId} has no thumbnail`);
      return this.fromStore(
        task,
        archive,
        this.keys.thumbnail(task.taskId),
        archive.thumbnailSize,
        'image/jpeg',
        `${task.taskId}.jpg`,
        request,
      );
    }
    if (archived) {
      try {
        return await this.fromStore(task, archive, this.keys.video(task.taskId), archive.size!, 'video/mp4', `${task.taskId}.mp4`, request);
      } catch (error) {
        if (error instanceof AppError) throw error;
        // The copy went missing (an operator cleaned the store): the provider may still have it.
        this.logger.error(`stored video of ${task.taskId} could not be read: ${(error as Error)?.message ?? error}`);
      }
    }
    this.refuseIfExpired(task, archive);
    return this.fromProvider(task, archive, request.range);
  }

  /** Past its provider's expiry a video without a copy is gone: 410, never the provider's error page or a dead link. */
  private refuseIfExpired(task: TaskEntity, archive: VideoArchiveEntity | null): void {
    if (archive && outputExpired(archive.expiresAt, this.clock.now())) throw videoExpired(task, 'its link at the provider expired');
  }

  /**
   * Between completion and archiving (a moment) the poster frame is made from the provider's video, so
   * a client never sees a finished video without one. Without a store there are no thumbnails, and an
   * archive that failed (the provider no longer has it) has none to make.
   */
  private async thumbnailMeanwhile(task: TaskEntity, archive: VideoArchiveEntity | null, request: DeliveryRequest): Promise<VideoStream> {
    const missing = () => AppError.notFound(`video ${task.taskId} has no thumbnail yet`);
    if (this.store === null || archive?.status === 'failed') throw missing();
    const image = await this.onDemand.posterFrame(task);
    if (!image) throw missing();
    const headers = {
      'content-type': 'image/jpeg',
      'content-length': String(image.length),
      'cache-control': 'private, no-store',
      'content-disposition': `inline; filename="${task.taskId}.jpg"`,
    };
    return { status: 200, headers, body: request.head ? null : Readable.from([image]) };
  }

  private async fromStore(
    task: TaskEntity,
    archive: VideoArchiveEntity,
    key: string,
    size: number,
    contentType: string,
    filename: string,
    request: DeliveryRequest,
  ): Promise<VideoStream> {
    const etag = `"${key.split('/').pop()!.slice(0, 16)}-${size.toString(16)}-${(archive.archivedAt ?? 0).toString(16)}"`;
    const headers: Record<string, string> = {
      'content-type': contentType,
      'accept-ranges': 'bytes',
      etag,
      'last-modified': new Date((toUnixSeconds(archive.archivedAt) ?? 0) * 1000).toUTCString(),
      'cache-control': 'private, no-cache',
      'content-disposition': `inline; filename="${filename}"`,
    };
    if (request.ifNoneMatch && request.ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      return { status: 304, headers, body: null };
    }
    // If-Range with another validator: the client's partial copy is stale, so it gets the whole object.
    const range = request.ifRange && request.ifRange !== etag ? undefined : parseByteRange(request.range, size);
    if (range === 'unsatisfiable') return { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` }, body: null };
    const status = range ? 206 : 200;
    const span: ByteRange = range ?? { start: 0, end: size - 1 };
    headers['content-length'] = String(size === 0 ? 0 : span.end - span.start + 1);
    if (range) headers['content-range'] = `bytes ${span.start}-${span.end}/${size}`;
    if (request.head || size === 0) return { status, headers, body: null };
    const path = this.store!.localPath?.(key);
    if (path) {
      await access(path, constants.R_OK); // a missing copy fails here, before any header is sent
      return { status, headers, body: null, file: { path, ...span } };
    }
    return { status, headers, body: await this.store!.read(key, range) };
  }

  private async fromProvider(task: TaskEntity, archive: VideoArchiveEntity | null, range: string | undefined): Promise<VideoStream> {
    const forwardedRange = range && /^bytes=/.test(range) ? range : undefined;
    let response;
    try {
      response = await this.provider.open(task, forwardedRange);
    } catch (error) {
      if (error instanceof ProviderVideoError && error.reason === 'gone' && archive?.status === 'failed') {
        throw videoExpired(task, 'the provider discarded it');
      }
      // Some providers answer an unsatisfiable range with an error instead of 416: the client gets its 416 all the same.
      if (forwardedRange && error instanceof ProviderVideoError && error.reason === 'unavailable') {
        const size = await this.providerSize(task);
        if (size !== null && parseByteRange(forwardedRange, size) === 'unsatisfiable') return unsatisfiable(task, size);
      }
      throw unavailable();
    }
    const headers: Record<string, string> = { 'content-type': 'video/mp4', 'accept-ranges': 'bytes', 'cache-control': 'private, no-store' };
    for (const name of PASSED_HEADERS) {
      const value = response.headers[name];
      if (typeof value === 'string' || typeof value === 'number') headers[name] = String(value);
    }
    headers['content-disposition'] = `inline; filename="${task.taskId}.mp4"`;
    if (response.status === 416) {
      response.data.destroy();
      return { status: 416, headers, body: null };
    }
    // A provider that ignores Range sends the whole video: an unsatisfiable range is still a 416 here.
    const announced = Number(response.headers['content-length']);
    if (
      forwardedRange &&
      response.status === 200 &&
      Number.isSafeInteger(announced) &&
      parseByteRange(forwardedRange, announced) === 'unsatisfiable'
    ) {
      response.data.destroy();
      return unsatisfiable(task, announced);
    }
    // An error page is never relayed as a video (it may name the provider's internals).
    const providerType = String(response.headers['content-type'] ?? '');
    if (/^text\/|html|json|xml/i.test(providerType)) {
      response.data.destroy();
      this.logger.warn(`video of ${task.taskId}: the provider answered ${providerType.split(';')[0]}, not a video`);
      throw unavailable();
    }
    const { head, body } = await peek(response.data, 64);
    if (looksLikeText(head) && (response.status === 200 || /^bytes 0-/.test(String(response.headers['content-range'] ?? '')))) {
      body.destroy();
      this.logger.warn(`video of ${task.taskId}: the provider answered text, not a video`);
      throw unavailable();
    }
    return { status: response.status, headers, body };
  }

  /** The video's size as the provider announces it for a whole download (the body is not read), or null. */
  private async providerSize(task: TaskEntity): Promise<number | null> {
    try {
      const response = await this.provider.open(task);
      response.data.destroy();
      const size = Number(response.headers['content-length']);
      return response.status === 200 && Number.isSafeInteger(size) ? size : null;
    } catch {
      return null;
    }
  }
}

/** 416 with the size, as RFC 9110 asks (`Content-Range: bytes *\/<size>`). */
const unsatisfiable = (task: TaskEntity, size: number): VideoStream => ({
  status: 416,
  headers: {
    'content-range': `bytes */${size}`,
    'accept-ranges': 'bytes',
    'cache-control': 'private, no-store',
    'content-disposition': `inline; filename="${task.taskId}.mp4"`,
  },
  body: null,
});

/** The first `bytes` of a stream (fewer if it ends), and a stream of all of it, to look before sending anything. */
async function peek(stream: Readable, bytes: number): Promise<{ head: Buffer; body: Readable }> {
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  await new Promise<void>((resolve, reject) => {
    const finish = () => {
      stream.off('data', onData).off('end', onEnd).off('error', onError);
      stream.pause();
      resolve();
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= bytes) finish();
    };
    const onEnd = () => {
      ended = true;
      finish();
    };
    const onError = (error: Error) => {
      stream.off('data', onData).off('end', onEnd);
      reject(error);
    };
    stream.on('data', onData).once('end', onEnd).once('error', onError);
  }).catch(() => {
    throw unavailable();
  });
  const head = Buffer.concat(chunks);
  const body = new PassThrough({ highWaterMark: RELAY_BUFFER_BYTES });
  body.write(head);
  if (ended) body.end();
  else {
    stream.pipe(body);
    stream.once('error', (error) => body.destroy(error));
    body.once('close', () => stream.destroy());
  }
  return { head, body };
}

/** The one answer for a video that is gone for good (see ErrorCode.VideoExpired). */
const videoExpired = (task: TaskEntity, why: string) =>
  new AppError(ErrorCode.VideoExpired, `video ${task.taskId} is no longer available: ${why} before the gateway could keep a copy`);

const unavailable = () =>
  new AppError(ErrorCode.ServiceUnavailable, 'the video is temporarily unavailable from the provider, retry later', {
    retryAfterSeconds: 30,
  });
