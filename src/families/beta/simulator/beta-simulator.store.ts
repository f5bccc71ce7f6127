import { Injectable } from '@nestjs/common';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { Clock } from '../../../common/runtime/clock';
import { ServerSecret } from '../../../database/server-secret.service';
import { SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import type { BetaQueryBody } from '../beta-protocol';

/**
 * Failure triggers, by text in the prompt:
 *   `[simulate:fail]`       -> the task ends FAILED with code InternalError.Algo
 *   `[simulate:moderation]` -> the task ends FAILED with code DataInspectionFailed (moderation)
 * At submit (BetaSimulatorController): `[simulate:reject]` -> 400 InvalidParameter, `[simulate:busy]` -> 429 Throttling.
 * Otherwise a task is PENDING for 2 s, RUNNING until 6 s, then SUCCEEDED with a signed video_url.
 */
export const SIMULATED_PENDING_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
const URL_VALIDITY_S = 24 * 3600;
const FORGET_AFTER_MS = 24 * 3600_000;
const TASK = 'beta.task';

interface SimulatedTask {
  model: string;
  prompt: string;
  duration: number;
  resolution: string;
  ratio: string;
  inputVideo: boolean;
  failure: { code: string; message: string } | null;
}

/**
 * The family B simulator's tasks, kept in the gateway's database (so a restart forgets none and
 * reuses no id); state follows the clock, so tests can move time. Links are signed with a key
 * derived from the server secret, so links handed out before a restart still play.
 */
@Injectable()
export class BetaSimulatorStore {
  constructor(
    private readonly clock: Clock,
    private readonly records: SimulatorRecords,
    private readonly serverSecret: ServerSecret,
  ) {}

  async create(input: {
    model: string;
    prompt: string;
    duration?: number;
    resolution?: string;
    ratio?: string;
    inputVideo: boolean;
  }): Promise<{ id: string }> {
    // The provider forgets tasks after 24 h (then answers UNKNOWN); so does the simulator.
    await this.records.forgetOlderThan(TASK, this.clock.now() - FORGET_AFTER_MS);
    const failure = input.prompt.includes('[simulate:moderation]')
      ? { code: 'DataInspectionFailed', message: 'Output data may contain inappropriate content. (simulated)' }
      : input.prompt.includes('[simulate:fail]')
        ? { code: 'InternalError.Algo', message: 'An internal error occurred during video generation. (simulated)' }
        : null;
    const task: SimulatedTask = {
      model: input.model,
      prompt: input.prompt,
      duration: input.duration ?? 5,
      resolution: input.resolution ?? '1080P',
      ratio: input.ratio ?? '16:9',
      inputVideo: input.inputVideo,
      failure,
    };
    const stored = await this.records.insertOrGet(TASK, randomUUID(), task);
    return { id: stored.key };
  }

  /** The provider's query body for a task id; UNKNOWN for ids it never saw (or forgot). */
  async query(id: string, origin: string): Promise<BetaQueryBody> {
    const requestId = randomUUID();
    const record = await this.records.find<SimulatedTask>(TASK, id);
    if (!record) return { request_id: requestId, output: { task_id: id, task_status: 'UNKNOWN' } };
    const task = { ...record.data, id: record.key, submittedAt: record.createdAt };
    const elapsed = this.clock.now() - task.submittedAt;
    const output: NonNullable<BetaQueryBody['output']> = {
      task_id: task.id,
      task_status:
        elapsed < SIMULATED_PENDING_MS ? 'PENDING' : elapsed < SIMULATED_DONE_MS ? 'RUNNING' : task.failure ? 'FAILED' : 'SUCCEEDED',
      submit_time: providerTime(task.submittedAt),
    };
    if (elapsed >= SIMULATED_PENDING_MS) output.scheduled_time = providerTime(task.submittedAt + SIMULATED_PENDING_MS);
    if (output.task_status === 'FAILED') {
      Object.assign(output, {
        end_time: providerTime(task.submittedAt + SIMULATED_DONE_MS),
        code: task.failure!.code,
        message: task.failure!.message,
      });
      return { request_id: requestId, output };
    }
    if (output.task_status !== 'SUCCEEDED') return { request_id: requestId, output };
    Object.assign(output, {
      end_time: providerTime(task.submittedAt + SIMULATED_DONE_MS),
      orig_prompt: task.prompt,
      video_url: this.signedUrl(origin, task.id),
    });
    const sr = task.resolution === '720P' ? 720 : 1080;
    return {
      request_id: requestId,
      output,
      usage: {
        duration: task.duration,
        input_video_duration: task.inputVideo ? task.duration : 0,
        output_video_duration: task.duration,
        video_count: 1,
        SR: sr,
        ratio: task.ratio,
      },
    };
  }

  /** True when the link's signature is ours and it has not expired. */
  async verify(id: string, expires: string, signature: string): Promise<boolean> {
    if (!/^\d+$/.test(expires) || Number(expires) * 1000 < this.clock.now() || !(await this.records.find(TASK, id))) return false;
    const expected = Buffer.from(this.sign(id, expires));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private signedUrl(origin: string, id: string): string {
    const expires = String(Math.floor(this.clock.now() / 1000) + URL_VALIDITY_S);
    return `${origin}/simulator/beta/videos/${id}.mp4?Expires=${expires}&OSSAccessKeyId=simulator&Signature=${this.sign(id, expires)}`;
  }

  private sign(id: string, expires: string): string {
    return createHmac('sha256', this.serverSecret.derive('simulator-beta-links')).update(`${id}\n${expires}`).digest('base64url');
  }
}

/** `YYYY-MM-DD hh:mm:ss.mmm`, the provider's timestamp text. */
function providerTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}
