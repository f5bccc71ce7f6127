import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { Clock } from '../../../common/runtime/clock';
import { SimulatorRecord, SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import type { MinimaxQueryAnswer } from '../minimax-protocol';

export const SIMULATED_QUEUED_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
const FORGET_AFTER_MS = 24 * 3600_000;
const TASK = 'minimax.task';
const OK = { status_code: 0, status_msg: 'success' };
const SIZES: Record<string, [number, number]> = { '512P': [910, 512], '768P': [1366, 768], '1080P': [1920, 1080] };

interface SimulatedTask {
  resolution: string;
  /** The `base_resp` code of a failed task (1027: output moderation), or null. */
  failure: number | null;
}

/**
 * The MiniMax simulator's tasks, kept in the gateway's database; state follows the clock. By text in
 * the prompt: `[simulate:fail]` -> Fail (1000), `[simulate:moderation]` -> Fail (1027). Otherwise
 * Queueing for 2 s, Processing until 6 s, then Success with a file id (= the task id).
 */
@Injectable()
export class MinimaxSimulatorStore {
  constructor(
    private readonly clock: Clock,
    private readonly records: SimulatorRecords,
  ) {}

  async create(input: { prompt: string; resolution: string }): Promise<string> {
    await this.records.forgetOlderThan(TASK, this.clock.now() - FORGET_AFTER_MS);
    const failure = input.prompt.includes('[simulate:moderation]') ? 1027 : input.prompt.includes('[simulate:fail]') ? 1000 : null;
    const id = String(randomInt(1, 2 ** 47) + 10 ** 14);
    await this.records.insertOrGet<SimulatedTask>(TASK, id, { resolution: input.resolution, failure });
    return id;
  }

  async query(id: string): Promise<MinimaxQueryAnswer | null> {
    const task = await this.records.find<SimulatedTask>(TASK, id);
    return task ? this.render(task) : null;
  }

  /** A file exists once its task succeeded. */
  async fileReady(fileId: string): Promise<boolean> {
    return (await this.query(fileId))?.status === 'Success';
  }

  private render({ key, data: task, createdAt }: SimulatorRecord<SimulatedTask>): MinimaxQueryAnswer {
    const elapsed = this.clock.now() - createdAt;
    if (elapsed < SIMULATED_QUEUED_MS) return { task_id: key, status: 'Queueing', file_id: '', base_resp: OK };
    if (elapsed < SIMULATED_DONE_MS) return { task_id: key, status: 'Processing', file_id: '', base_resp: OK };
    if (task.failure)
      return { task_id: key, status: 'Fail', file_id: '', base_resp: { status_code: task.failure, status_msg: 'failed (simulated)' } };
    const [width, height] = SIZES[task.resolution] ?? SIZES['768P'];
    return { task_id: key, status: 'Success', file_id: key, video_width: width, video_height: height, base_resp: OK };
  }
}
