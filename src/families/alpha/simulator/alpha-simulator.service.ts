import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { ALPHA_SPECS, isAlphaQuality } from '../alpha-models';
import { sniffImageType } from '../alpha-image-inputs.service';
import { SAMPLE_VIDEO_HEIGHT, SAMPLE_VIDEO_WIDTH } from '../../simulator-shared/sample-video';

/**
 * Prompt markers that steer the simulated provider (the console's browser tests use them):
 * - `[simulate:fail]`        the task ends with status 8 (generation failed; the gateway refunds)
 * - `[simulate:moderation]`  the task ends with status 7 (content moderation failed; refunded)
 * - `[simulate:reject]`      the submit is refused with ErrCode 400011 (client gets 400, no charge)
 * - `[simulate:busy]`        the submit is refused with ErrCode 500044 (client gets 429, no charge)
 * Otherwise a task reports status 5 for GENERATION_MS, then 1 with a real MP4.
 */
export const SIMULATE_MARKERS = { fail: '[simulate:fail]', moderation: '[simulate:moderation]', reject: '[simulate:reject]', busy: '[simulate:busy]' };

export const GENERATION_MS = 6_000;
/** How long a result URL stays valid, like the provider's temporary URLs. */
export const URL_VALIDITY_MS = 3_600_000;
const MAX_REMEMBERED = 10_000;

export class AlphaSimulatorError extends Error {
  constructor(
    readonly errCode: number,
    message: string,
  ) {
    super(message);
  }
}

interface SimulatedVideo {
  id: number;
  prompt: string;
  createdAt: number;
  finalStatus: 1 | 7 | 8;
}

/** The simulated provider's state: uploaded images, videos, and trace ids already seen. */
@Injectable()
export class AlphaSimulatorService {
  private nextImageId = 100_000;
  private nextVideoId = 900_000;
  private readonly images = new Set<number>();
  private readonly videos = new Map<number, SimulatedVideo>();
  private readonly byTraceId = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  uploadImage(file: Buffer | undefined, imageUrl: unknown): { img_id: number; img_url: string } {
    if (file) {
      if (!sniffImageType(file)) throw new AlphaSimulatorError(500031, 'image format not supported');
    } else if (typeof imageUrl !== 'string' || !/^https?:\/\//.test(imageUrl)) {
      throw new AlphaSimulatorError(400011, 'image or image_url is required');
    }
    const id = this.nextImageId++;
    remember(this.images, id);
    return { img_id: id, img_url: `https://simulator.invalid/images/${id}` };
  }

  generate(kind: 'text' | 'img', body: Record<string, unknown>, traceId: string | undefined): { video_id: number } {
    const earlier = traceId ? this.byTraceId.get(traceId) : undefined;
    if (earlier !== undefined) return { video_id: earlier };
    const prompt = typeof body.prompt === 'string' ? body.prompt : '';
    if (prompt.includes(SIMULATE_MARKERS.reject)) throw new AlphaSimulatorError(400011, 'invalid parameter (simulated)');
    if (prompt.includes(SIMULATE_MARKERS.busy)) throw new AlphaSimulatorError(500044, 'concurrent generation limit reached (simulated)');
    this.checkParameters(kind, body, prompt);
    const id = this.nextVideoId++;
    const finalStatus = prompt.includes(SIMULATE_MARKERS.moderation) ? 7 : prompt.includes(SIMULATE_MARKERS.fail) ? 8 : 1;
    this.videos.set(id, { id, prompt, createdAt: this.clock.now(), finalStatus });
    if (this.videos.size > MAX_REMEMBERED) this.videos.delete(this.videos.keys().next().value as number);
    if (traceId) remember(this.byTraceId, traceId, id);
    return { video_id: id };
  }

  /** Status 5 until the generation time has passed, then the final status; `fileUrl` builds the temporary URL. */
  result(videoId: string, fileUrl: (id: number, expires: number) => string): Record<string, unknown> {
    const video = this.videos.get(Number(videoId));
    if (!video) throw new AlphaSimulatorError(400017, 'video not found');
    const now = this.clock.now();
    const done = now - video.createdAt >= GENERATION_MS;
    const status = done ? video.finalStatus : 5;
    return {
      id: video.id,
      status,
      prompt: video.prompt,
      create_time: new Date(video.createdAt).toISOString(),
      modify_time: new Date(now).toISOString(),
      ...(status === 1 ? { url: fileUrl(video.id, now + URL_VALIDITY_MS), outputWidth: SAMPLE_VIDEO_WIDTH, outputHeight: SAMPLE_VIDEO_HEIGHT } : {}),
    };
  }

  /** Whether a temporary file URL may still be served. */
  fileAvailable(videoId: number, expires: number): boolean {
    return this.videos.get(videoId)?.finalStatus === 1 && Number.isFinite(expires) && expires >= this.clock.now();
  }

  /** The provider's own checks, so that a gateway bug shows up as a provider error. */
  private checkParameters(kind: 'text' | 'img', body: Record<string, unknown>, prompt: string): void {
    const spec = ALPHA_SPECS[String(body.model) as keyof typeof ALPHA_SPECS];
    if (!spec) throw new AlphaSimulatorError(400013, `invalid model ${String(body.model)}`);
    if (kind === 'text' && !prompt.trim()) throw new AlphaSimulatorError(400011, 'prompt is empty');
    if (prompt.length > 2048) throw new AlphaSimulatorError(400018, 'prompt too long');
    if (!spec.durations.includes(Number(body.duration))) throw new AlphaSimulatorError(400013, 'invalid duration');
    if (typeof body.quality !== 'string' || !isAlphaQuality(body.quality)) throw new AlphaSimulatorError(400013, 'invalid quality');
    if (kind === 'img' && !this.images.has(Number(body.img_id))) throw new AlphaSimulatorError(400032, 'invalid image id');
  }
}

/** Bounded memory: the oldest entries go first. */
function remember<K, V>(store: Set<K> | Map<K, V>, key: K, value?: V): void {
  if (store instanceof Map) store.set(key, value as V);
  else store.add(key);
  if (store.size > MAX_REMEMBERED) store.delete(store.keys().next().value as K);
}
