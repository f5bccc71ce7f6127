import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '../../../common/runtime/clock';
import { SimulatorRecord, SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import type { OpenAiVideo } from '../openai-protocol';

/** The models the simulator takes (and its seeded channel lists). */
export const OPENAI_SIMULATOR_MODELS = ['sora-2', 'sora-2-pro'];
export const SIMULATED_QUEUED_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
const FORGET_AFTER_MS = 24 * 3600_000;
const VIDEO = 'openai.video';

interface SimulatedVideo {
  model: string;
  seconds: string;
  size: string;
  failure: string | null;
}

/**
 * The family O simulator's videos, kept in the gateway's database (a restart forgets none); state
 * follows the clock. Failure triggers, by text in the prompt: `[simulate:fail]` -> failed
 * (`video_generation_failed`), `[simulate:moderation]` -> failed (`moderation_blocked`).
 * Otherwise queued for 2 s, in progress until 6 s, then completed.
 */
@Injectable()
export class OpenAiSimulatorStore {
  constructor(
    private readonly clock: Clock,
    private readonly records: SimulatorRecords,
  ) {}

  async create(input: { model: string; prompt: string; seconds: string; size: string }): Promise<OpenAiVideo> {
    await this.records.forgetOlderThan(VIDEO, this.clock.now() - FORGET_AFTER_MS);
    const failure = input.prompt.includes('[simulate:moderation]')
      ? 'moderation_blocked'
      : input.prompt.includes('[simulate:fail]')
        ? 'video_generation_failed'
        : null;
    const video: SimulatedVideo = { model: input.model, seconds: input.seconds, size: input.size, failure };
    return this.render(await this.records.insertOrGet(VIDEO, `video_${randomBytes(12).toString('hex')}`, video));
  }

  async get(id: string): Promise<OpenAiVideo | null> {
    const video = await this.records.find<SimulatedVideo>(VIDEO, id);
    return video ? this.render(video) : null;
  }

  async list(limit: number): Promise<OpenAiVideo[]> {
    return (await this.records.list<SimulatedVideo>(VIDEO, { limit })).map((video) => this.render(video));
  }

  private render({ key, data: video, createdAt }: SimulatorRecord<SimulatedVideo>): OpenAiVideo {
    const elapsed = this.clock.now() - createdAt;
    const base = {
      id: key,
      object: 'video',
      model: video.model,
      created_at: Math.floor(createdAt / 1000),
      seconds: video.seconds,
      size: video.size,
    };
    if (elapsed < SIMULATED_QUEUED_MS) return { ...base, status: 'queued', progress: 0 };
    if (elapsed < SIMULATED_DONE_MS)
      return {
        ...base,
        status: 'in_progress',
        progress: Math.round(((elapsed - SIMULATED_QUEUED_MS) / (SIMULATED_DONE_MS - SIMULATED_QUEUED_MS)) * 99),
      };
    const completedAt = Math.floor((createdAt + SIMULATED_DONE_MS) / 1000);
    if (video.failure)
      return {
        ...base,
        status: 'failed',
        progress: 100,
        completed_at: completedAt,
        error: { code: video.failure, message: 'The video could not be generated. (simulated)' },
      };
    // Like a real provider: the size asked for (the clip served is always the simulator's sample).
    return { ...base, status: 'completed', progress: 100, completed_at: completedAt };
  }
}
