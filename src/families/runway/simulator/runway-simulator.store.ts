import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { Clock } from '../../../common/runtime/clock';
import { SimulatorRecord, SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import type { RunwayTask } from '../runway-protocol';

export const SIMULATED_PENDING_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
const FORGET_AFTER_MS = 24 * 3600_000;
const TASK = 'runway.task';

interface SimulatedTask {
  model: string;
  /** The signed output's token (`?_jwt=`), like Runway's CloudFront links. */
  token: string;
  failureCode: string | null;
  cancelled: boolean;
}

/**
 * The Runway simulator's tasks, kept in the gateway's database; state follows the clock: PENDING
 * for 2 s, RUNNING until 6 s, then SUCCEEDED. `[simulate:moderation]` in the prompt fails with
 * `SAFETY.INPUT.TEXT`, `[simulate:fail]` with `INTERNAL`. A cancelled task stays CANCELLED.
 */
@Injectable()
export class RunwaySimulatorStore {
  constructor(
    private readonly clock: Clock,
    private readonly records: SimulatorRecords,
  ) {}

  async create(model: string, prompt: string): Promise<string> {
    await this.records.forgetOlderThan(TASK, this.clock.now() - FORGET_AFTER_MS);
    const failureCode = prompt.includes('[simulate:moderation]')
      ? 'SAFETY.INPUT.TEXT'
      : prompt.includes('[simulate:fail]')
        ? 'INTERNAL'
        : null;
    const task: SimulatedTask = { model, token: randomBytes(16).toString('hex'), failureCode, cancelled: false };
    return (await this.records.insertOrGet(TASK, randomUUID(), task)).key;
  }

  /** The task as `GET /v1/tasks/{id}` answers it; `outputUrl` makes the signed link of a finished one. */
  async get(id: string, outputUrl: (id: string, token: string) => string): Promise<RunwayTask | null> {
    const record = await this.records.find<SimulatedTask>(TASK, id);
    return record ? this.render(record, outputUrl) : null;
  }

  /** Cancels a task still running (true), deletes a finished one (false); null when there is none. */
  async cancelOrDelete(id: string): Promise<boolean | null> {
    const record = await this.records.find<SimulatedTask>(TASK, id);
    if (!record) return null;
    if (this.clock.now() - record.createdAt < SIMULATED_DONE_MS && !record.data.cancelled) {
      await this.records.update(TASK, id, { ...record.data, cancelled: true });
      return true;
    }
    await this.records.remove(TASK, id);
    return false;
  }

  async tokenOf(id: string): Promise<string | null> {
    const record = await this.records.find<SimulatedTask>(TASK, id);
    return record && !record.data.failureCode && !record.data.cancelled && this.clock.now() - record.createdAt >= SIMULATED_DONE_MS
      ? record.data.token
      : null;
  }

  private render(
    { key, data: task, createdAt }: SimulatorRecord<SimulatedTask>,
    outputUrl: (id: string, token: string) => string,
  ): RunwayTask {
    const elapsed = this.clock.now() - createdAt;
    const base = { id: key, createdAt: new Date(createdAt).toISOString() };
    if (task.cancelled) return { ...base, status: 'CANCELLED' };
    if (elapsed < SIMULATED_PENDING_MS) return { ...base, status: 'PENDING' };
    if (elapsed < SIMULATED_DONE_MS)
      return {
        ...base,
        status: 'RUNNING',
        progress: Math.round(((elapsed - SIMULATED_PENDING_MS) / (SIMULATED_DONE_MS - SIMULATED_PENDING_MS)) * 99) / 100,
      };
    if (task.failureCode)
      return { ...base, status: 'FAILED', failure: 'The task could not be completed. (simulated)', failureCode: task.failureCode };
    return { ...base, status: 'SUCCEEDED', output: [outputUrl(key, task.token)] };
  }
}
