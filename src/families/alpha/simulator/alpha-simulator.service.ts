import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../../common/runtime/clock';
import { ALPHA_SPECS, AlphaVersionSpec, isAlphaQuality } from '../alpha-models';
import { sniffImageType } from '../../../common/urls/image-type';
import { SAMPLE_VIDEO_HEIGHT, SAMPLE_VIDEO_WIDTH } from '../../simulator-shared/sample-video';
import { SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import { pixelSizeOf } from '../../pixel-size';
import { ownValue } from '../../../common/runtime/own-value';

/**
 * Prompt markers that steer the simulated provider (the console's browser tests use them):
 * - `[simulate:fail]`        the task ends with status 8 (generation failed; the gateway refunds)
 * - `[simulate:moderation]`  the task ends with status 7 (content moderation failed; refunded)
 * - `[simulate:reject]`      the submit is refused with ErrCode 400011 (client gets 400, no charge)
 * - `[simulate:busy]`        the submit is refused with ErrCode 500044 (client gets 429, no charge)
 * Otherwise a task reports status 5 for GENERATION_MS, then 1 with a real MP4.
 */
export const SIMULATE_MARKERS = {
  fail: '[simulate:fail]',
  moderation: '[simulate:moderation]',
  reject: '[simulate:reject]',
  busy: '[simulate:busy]',
};

export const GENERATION_MS = 6_000;
/** How long a result URL stays valid, like the provider's temporary URLs. */
export const URL_VALIDITY_MS = 3_600_000;
const IMAGE = 'alpha.image';
const VIDEO = 'alpha.video';
/** Short side of each quality, for the output size a real provider would report. */
const SHORT_SIDE: Record<string, number> = { '360p': 360, '540p': 540, '720p': 720, '1080p': 1080 };

export class AlphaSimulatorError extends Error {
  constructor(
    readonly errCode: number,
    message: string,
  ) {
    super(message);
  }
}

interface SimulatedVideo {
  prompt: string;
  finalStatus: 1 | 7 | 8;
  /** What a real provider reports for the request (the clip served is always the sample). */
  size: string | null;
}

/**
 * The simulated provider's state, kept in the gateway's database (SimulatorRecords): uploaded
 * images and videos, whose integer ids come from the table's sequence (never reused, also across
 * restarts), and videos are keyed by the trace id the provider de-duplicates on.
 */
@Injectable()
export class AlphaSimulatorService {
  constructor(
    private readonly clock: Clock,
    private readonly records: SimulatorRecords,
  ) {}

  async uploadImage(file: Buffer | undefined, imageUrl: unknown): Promise<{ img_id: number; img_url: string }> {
    if (file) {
      if (!sniffImageType(file)) throw new AlphaSimulatorError(500031, 'image format not supported');
    } else if (typeof imageUrl !== 'string' || !/^https?:\/\//.test(imageUrl)) {
      throw new AlphaSimulatorError(400011, 'image or image_url is required');
    }
    const image = await this.records.insertOrGet(IMAGE, randomUUID(), {});
    return { img_id: image.seq, img_url: `https://simulator.invalid/images/${image.seq}` };
  }

  async generate(kind: 'text' | 'img', body: Record<string, unknown>, traceId: string | undefined): Promise<{ video_id: number }> {
    const earlier = traceId ? await this.records.find(VIDEO, traceId) : null;
    if (earlier) return { video_id: earlier.seq };
    const prompt = typeof body.prompt === 'string' ? body.prompt : '';
    if (prompt.includes(SIMULATE_MARKERS.reject)) throw new AlphaSimulatorError(400011, 'invalid parameter (simulated)');
    if (prompt.includes(SIMULATE_MARKERS.busy)) throw new AlphaSimulatorError(500044, 'concurrent generation limit reached (simulated)');
    await this.checkParameters(kind, body, prompt);
    const finalStatus = prompt.includes(SIMULATE_MARKERS.moderation) ? 7 : prompt.includes(SIMULATE_MARKERS.fail) ? 8 : 1;
    // Image-to-video follows the image's shape; the sample image is landscape, so 16:9 stands for it.
    const size =
      pixelSizeOf(ownValue(SHORT_SIDE, String(body.quality)) ?? 0, kind === 'text' ? (body.aspect_ratio ?? '16:9') : '16:9') ?? null;
    const video = await this.records.insertOrGet<SimulatedVideo>(VIDEO, traceId || randomUUID(), { prompt, finalStatus, size });
    return { video_id: video.seq };
  }

  /** Status 5 until the generation time has passed, then the final status; `fileUrl` builds the temporary URL. */
  async result(videoId: string, fileUrl: (id: number, expires: number) => string): Promise<Record<string, unknown>> {
    const video = await this.records.findBySeq<SimulatedVideo>(VIDEO, Number(videoId));
    if (!video) throw new AlphaSimulatorError(400017, 'video not found');
    const now = this.clock.now();
    const done = now - video.createdAt >= GENERATION_MS;
    const status = done ? video.data.finalStatus : 5;
    const [width, height] = (video.data.size ?? `${SAMPLE_VIDEO_WIDTH}x${SAMPLE_VIDEO_HEIGHT}`).split('x').map(Number);
    return {
      id: video.seq,
      status,
      prompt: video.data.prompt,
      create_time: new Date(video.createdAt).toISOString(),
      modify_time: new Date(now).toISOString(),
      ...(status === 1 ? { url: fileUrl(video.seq, now + URL_VALIDITY_MS), outputWidth: width, outputHeight: height } : {}),
    };
  }

  /** Whether a temporary file URL may still be served. */
  async fileAvailable(videoId: number, expires: number): Promise<boolean> {
    if (!Number.isFinite(expires) || expires < this.clock.now()) return false;
    return (await this.records.findBySeq<SimulatedVideo>(VIDEO, videoId))?.data.finalStatus === 1;
  }

  /** The provider's own checks, so that a gateway bug shows up as a provider error. */
  private async checkParameters(kind: 'text' | 'img', body: Record<string, unknown>, prompt: string): Promise<void> {
    const spec = ownValue<AlphaVersionSpec>(ALPHA_SPECS, String(body.model));
    if (!spec) throw new AlphaSimulatorError(400013, `invalid model ${String(body.model)}`);
    if (kind === 'text' && !prompt.trim()) throw new AlphaSimulatorError(400011, 'prompt is empty');
    if (prompt.length > 2048) throw new AlphaSimulatorError(400018, 'prompt too long');
    if (!spec.durations.includes(Number(body.duration))) throw new AlphaSimulatorError(400013, 'invalid duration');
    if (typeof body.quality !== 'string' || !isAlphaQuality(body.quality)) throw new AlphaSimulatorError(400013, 'invalid quality');
    if (kind === 'img' && !(await this.records.findBySeq(IMAGE, Number(body.img_id))))
      throw new AlphaSimulatorError(400032, 'invalid image id');
  }
}
