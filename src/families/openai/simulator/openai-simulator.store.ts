import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '../../../common/clock';
import { SAMPLE_VIDEO_HEIGHT, SAMPLE_VIDEO_WIDTH } from '../../simulator-shared/sample-video';
import type { OpenAiVideo } from '../openai-protocol';

/** The models the simulator takes (and its seeded channel lists). */
export const OPENAI_SIMULATOR_MODELS = ['sora-2', 'sora-2-pro'];
export const SIMULATED_QUEUED_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
const FORGET_AFTER_MS = 24 * 3600_000;

interface SimulatedVideo {
  id: string;
  model: string;
  seconds: string;
  size: string;
  createdAt: number;
  failure: string | null;
}

/**
 * In-memory videos of the family O simulator; state follows the clock. Failure triggers, by text
 * in the prompt: `[simulate:fail]` -> failed (`video_generation_failed`), `[simulate:moderation]`
 * -> failed (`moderation_blocked`). Otherwise queued for 2 s, in progress until 6 s, then completed.
 */
@Injectable()
export class OpenAiSimulatorStore {
  private readonly videos = new Map<string, SimulatedVideo>();

  constructor(private readonly clock: Clock) {}

  create(input: { model: string; prompt: string; seconds: string; size: string }): OpenAiVideo {
    this.forgetOld();
    const failure = input.prompt.includes('[simulate:moderation]') ? 'moderation_blocked' : input.prompt.includes('[simulate:fail]') ? 'video_generation_failed' : null;
    const video: SimulatedVideo = { id: `video_${randomBytes(12).toString('hex')}`, model: input.model, seconds: input.seconds, size: input.size, createdAt: this.clock.now(), failure };
    this.videos.set(video.id, video);
    return this.render(video);
  }

  get(id: string): OpenAiVideo | null {
    const video = this.videos.get(id);
    return video ? this.render(video) : null;
  }

  list(limit: number): OpenAiVideo[] {
    return [...this.videos.values()].reverse().slice(0, limit).map((video) => this.render(video));
  }

  private render(video: SimulatedVideo): OpenAiVideo {
    const elapsed = this.clock.now() - video.createdAt;
    const base = { id: video.id, object: 'video', model: video.model, created_at: Math.floor(video.createdAt / 1000), seconds: video.seconds, size: video.size };
    if (elapsed < SIMULATED_QUEUED_MS) return { ...base, status: 'queued', progress: 0 };
    if (elapsed < SIMULATED_DONE_MS) return { ...base, status: 'in_progress', progress: Math.round(((elapsed - SIMULATED_QUEUED_MS) / (SIMULATED_DONE_MS - SIMULATED_QUEUED_MS)) * 99) };
    const completedAt = Math.floor((video.createdAt + SIMULATED_DONE_MS) / 1000);
    if (video.failure) return { ...base, status: 'failed', progress: 100, completed_at: completedAt, error: { code: video.failure, message: 'The video could not be generated. (simulated)' } };
    // The sample clip is what is served, whatever size was asked for.
    return { ...base, status: 'completed', progress: 100, completed_at: completedAt, size: `${SAMPLE_VIDEO_WIDTH}x${SAMPLE_VIDEO_HEIGHT}` };
  }

  private forgetOld(): void {
    const cutoff = this.clock.now() - FORGET_AFTER_MS;
    for (const [id, video] of this.videos) if (video.createdAt < cutoff) this.videos.delete(id);
  }
}
