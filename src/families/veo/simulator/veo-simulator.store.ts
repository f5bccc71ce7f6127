import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '../../../common/runtime/clock';
import { SimulatorRecords } from '../../simulator-shared/simulator-records.service';
import type { VeoOperation } from '../veo-protocol';

export const SIMULATED_DONE_MS = 6_000;
const FORGET_AFTER_MS = 48 * 3600_000;
const OPERATION = 'veo.operation';

interface SimulatedOperation {
  model: string;
  outcome: 'video' | 'moderation' | 'error';
}

/**
 * The Veo simulator's operations, kept in the gateway's database; state follows the clock: running
 * for 6 s, then done. By text in the prompt: `[simulate:moderation]` -> done with RAI-filtered counts
 * and no sample, `[simulate:fail]` -> done with error code 13; otherwise a sample whose file is the
 * simulator's sample MP4 (`files/<operation id>:download`, key required).
 */
@Injectable()
export class VeoSimulatorStore {
  constructor(
    private readonly clock: Clock,
    private readonly records: SimulatorRecords,
  ) {}

  async create(model: string, prompt: string): Promise<VeoOperation> {
    await this.records.forgetOlderThan(OPERATION, this.clock.now() - FORGET_AFTER_MS);
    const outcome = prompt.includes('[simulate:moderation]') ? 'moderation' : prompt.includes('[simulate:fail]') ? 'error' : 'video';
    const id = randomBytes(6).toString('hex');
    await this.records.insertOrGet<SimulatedOperation>(OPERATION, id, { model, outcome });
    return { name: `models/${model}/operations/${id}` };
  }

  /** The operation as `GET /v1beta/{name}` answers it; null when unknown. `root` is the simulator's URL (for the file URI). */
  async get(model: string, id: string, root: string): Promise<VeoOperation | null> {
    const record = await this.records.find<SimulatedOperation>(OPERATION, id);
    if (!record || record.data.model !== model) return null;
    const name = `models/${model}/operations/${id}`;
    if (this.clock.now() - record.createdAt < SIMULATED_DONE_MS) return { name };
    if (record.data.outcome === 'error') return { name, done: true, error: { code: 13, message: 'Video generation failed. (simulated)' } };
    const type = 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse';
    if (record.data.outcome === 'moderation') {
      return {
        name,
        done: true,
        response: {
          '@type': type,
          generateVideoResponse: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: ['The prompt was blocked. (simulated)'] },
        },
      } as VeoOperation;
    }
    return {
      name,
      done: true,
      response: {
        '@type': type,
        generateVideoResponse: { generatedSamples: [{ video: { uri: `${root}/v1beta/files/${id}:download?alt=media` } }] },
      },
    } as VeoOperation;
  }

  /** Whether a finished video with this file id exists. */
  async hasVideo(id: string): Promise<boolean> {
    const record = await this.records.find<SimulatedOperation>(OPERATION, id);
    return !!record && record.data.outcome === 'video' && this.clock.now() - record.createdAt >= SIMULATED_DONE_MS;
  }
}
