import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { Clock } from '../../../common/runtime/clock';
import { SimulatorRecord, SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import type { KlingEndpoint, KlingTaskData } from '../kling-protocol';

export const SIMULATED_SUBMITTED_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
const FORGET_AFTER_MS = 24 * 3600_000;
const TASK = 'kling.task';

interface SimulatedTask {
  endpoint: KlingEndpoint;
  duration: string;
  failure: string | null;
}

/**
 * The Kling simulator's tasks, kept in the gateway's database; state follows the clock:
 * submitted for 2 s, processing until 6 s, then succeed. `[simulate:fail]` in the prompt ends
 * failed, `[simulate:moderation]` failed with a moderation message.
 */
@Injectable()
export class KlingSimulatorStore {
  constructor(
    private readonly clock: Clock,
    private readonly records: SimulatorRecords,
  ) {}

  async create(endpoint: KlingEndpoint, prompt: string, duration: string): Promise<KlingTaskData> {
    await this.records.forgetOlderThan(TASK, this.clock.now() - FORGET_AFTER_MS);
    const failure = prompt.includes('[simulate:moderation]')
      ? 'Failure to pass the risk control system (simulated)'
      : prompt.includes('[simulate:fail]')
        ? 'Video generation failed (simulated)'
        : null;
    // Kling's ids are long decimal strings.
    const id = `8${String(randomInt(1e9)).padStart(9, '0')}${String(randomInt(1e8)).padStart(8, '0')}`;
    return this.render(await this.records.insertOrGet(TASK, id, { endpoint, duration, failure }), '');
  }

  /** The task as its own endpoint's query shows it (another endpoint's path does not find it). */
  async get(endpoint: KlingEndpoint, id: string, videoUrlBase: string): Promise<KlingTaskData | null> {
    const task = await this.records.find<SimulatedTask>(TASK, id);
    return task && task.data.endpoint === endpoint ? this.render(task, videoUrlBase) : null;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.records.find<SimulatedTask>(TASK, id)) !== null;
  }

  private render({ key, data: task, createdAt }: SimulatorRecord<SimulatedTask>, videoUrlBase: string): KlingTaskData {
    const elapsed = this.clock.now() - createdAt;
    const base = { task_id: key, created_at: createdAt, updated_at: Math.min(this.clock.now(), createdAt + SIMULATED_DONE_MS) };
    if (elapsed < SIMULATED_SUBMITTED_MS) return { ...base, task_status: 'submitted', task_status_msg: '' };
    if (elapsed < SIMULATED_DONE_MS) return { ...base, task_status: 'processing', task_status_msg: '' };
    if (task.failure) return { ...base, task_status: 'failed', task_status_msg: task.failure };
    return {
      ...base,
      task_status: 'succeed',
      task_status_msg: '',
      task_result: { videos: [{ id: `${key}-0`, url: `${videoUrlBase}/${key}.mp4`, duration: task.duration }] },
    };
  }
}
