import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/runtime/clock';
import { randomBase62 } from '../../../common/runtime/random-id';
import { SimulatorRecord, SimulatorRecords } from '../../simulator-shared/simulator-records.service';

/** How long the simulated H5 page accepts a check (the provider's is about 120 s). */
export const H5_LIFETIME_MS = 120_000;
/** Simulated task timeline: queued, then running, then done. */
const QUEUED_MS = 2_000;
const RUNNING_UNTIL_MS = 8_000;
/** Simulated asset processing time. */
const ASSET_PROCESSING_MS = 2_000;
/** Markers that make the simulator fail (in a prompt, or in an asset URL). */
export const FAIL_MARKERS = ['[simulate:fail]', 'simulate-fail'];
const wantsFailure = (text: string) => FAIL_MARKERS.some((marker) => text.includes(marker));

export interface SimSession {
  token: string;
  callbackUrl: string;
  createdAt: number;
  /** Set once the H5 page was answered (pass or fail): single use. */
  answeredAt: number | null;
  groupId: string | null;
}

export interface SimAsset {
  id: string;
  groupId: string;
  url: string;
  name: string;
  createdAt: number;
}

interface SimTask {
  body: Record<string, unknown>;
  prompt: string;
  /** Cancelled while queued: reads `cancelled` from then on. */
  cancelled?: boolean;
}

/** What a cancel (DELETE) did: cancelled a queued task, deleted a finished one, or was refused for a running one. */
export type SimCancelOutcome = 'cancelled' | 'deleted' | 'running';

const SESSION = 'gamma.session';
const GROUP = 'gamma.group';
const ASSET = 'gamma.asset';
const TASK = 'gamma.task';

const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');

/**
 * The embedded family C provider's state (sessions, groups, assets, tasks), kept in the gateway's
 * database so that a restart forgets none of them; time comes from the gateway's Clock.
 */
@Injectable()
export class GammaSimulatorStore {
  constructor(
    private readonly clock: Clock,
    private readonly records: SimulatorRecords,
  ) {}

  now(): number {
    return this.clock.now();
  }

  async createSession(callbackUrl: string): Promise<SimSession> {
    const token = `bt-${randomBase62(24)}`;
    const stored = await this.records.insertOrGet(SESSION, token, { callbackUrl, answeredAt: null, groupId: null });
    return { token, ...stored.data, createdAt: stored.createdAt };
  }

  async session(token: string): Promise<SimSession | undefined> {
    const stored = await this.records.find<Omit<SimSession, 'token' | 'createdAt'>>(SESSION, token);
    return stored ? { token, ...stored.data, createdAt: stored.createdAt } : undefined;
  }

  /** The H5 page can still be answered: known, unused, within its lifetime. */
  async openSession(token: string): Promise<SimSession | undefined> {
    const session = await this.session(token);
    if (!session || session.answeredAt !== null || this.now() - session.createdAt > H5_LIFETIME_MS) return undefined;
    return session;
  }

  /** Answers the H5 page; a pass creates the person's portrait group. */
  async answer(session: SimSession, passed: boolean): Promise<void> {
    session.answeredAt = this.now();
    if (passed) {
      session.groupId = `group-${stamp(this.now())}-${randomBase62(10).toLowerCase()}`;
      await this.records.insertOrGet(GROUP, session.groupId, {});
    }
    await this.records.update(SESSION, session.token, {
      callbackUrl: session.callbackUrl,
      answeredAt: session.answeredAt,
      groupId: session.groupId,
    });
  }

  async hasGroup(groupId: string): Promise<boolean> {
    return (await this.records.find(GROUP, groupId)) !== null;
  }

  async createAsset(input: { groupId: string; url: string; name: string }): Promise<SimAsset> {
    const id = `asset-${stamp(this.now())}-${randomBase62(10).toLowerCase()}`;
    const stored = await this.records.insertOrGet(ASSET, id, { url: input.url, name: input.name }, input.groupId);
    return { id, groupId: input.groupId, url: input.url, name: input.name, createdAt: stored.createdAt };
  }

  async asset(id: string): Promise<SimAsset | undefined> {
    const stored = await this.records.find<{ url: string; name: string }>(ASSET, id);
    return stored ? toAsset(stored) : undefined;
  }

  /** Assets of these groups (all when none given), oldest first. */
  async assetsOf(groupIds: string[] | undefined): Promise<SimAsset[]> {
    const stored = await this.records.list<{ url: string; name: string }>(ASSET, { parentKeys: groupIds, limit: 10_000 });
    return stored.map(toAsset).reverse();
  }

  async deleteAsset(id: string): Promise<boolean> {
    return this.records.remove(ASSET, id);
  }

  /** The provider's view of an asset: Processing for a moment, then Active (or Failed for a marked URL). */
  assetView(asset: SimAsset): Record<string, unknown> {
    const processing = this.now() - asset.createdAt < ASSET_PROCESSING_MS;
    const failed = !processing && wantsFailure(asset.url);
    return {
      Id: asset.id,
      GroupId: asset.groupId,
      Status: processing ? 'Processing' : failed ? 'Failed' : 'Active',
      AssetType: 'Image',
      URL: asset.url,
      Name: asset.name,
      CreateTime: new Date(asset.createdAt).toISOString(),
      Error: failed ? { Code: 'FaceMismatch', Message: 'the face in the image does not match the verified person' } : null,
    };
  }

  async isActiveAsset(id: string): Promise<boolean> {
    const asset = await this.asset(id);
    return !!asset && this.assetView(asset).Status === 'Active';
  }

  async createTask(body: Record<string, unknown>, prompt: string): Promise<{ id: string }> {
    const id = `cgt-${new Date(this.now()).toISOString().replace(/\D/g, '').slice(0, 14)}-${randomBase62(8).toLowerCase()}`;
    await this.records.insertOrGet<SimTask>(TASK, id, { body, prompt });
    return { id };
  }

  /** The query body of the protocol document, following the simulated timeline. */
  async taskView(id: string, origin: string): Promise<Record<string, unknown> | undefined> {
    const stored = await this.records.find<SimTask>(TASK, id);
    if (!stored) return undefined;
    const task = stored.data;
    const age = this.now() - stored.createdAt;
    const finished = age >= RUNNING_UNTIL_MS;
    const status = task.cancelled
      ? 'cancelled'
      : age < QUEUED_MS
        ? 'queued'
        : !finished
          ? 'running'
          : wantsFailure(task.prompt)
            ? 'failed'
            : 'succeeded';
    return {
      id,
      model: task.body.model,
      status,
      error:
        status === 'failed'
          ? { code: 'InternalServiceError', message: 'the simulator failed this task on request ([simulate:fail])' }
          : null,
      created_at: Math.floor(stored.createdAt / 1000),
      updated_at: Math.floor(this.now() / 1000),
      content: status === 'succeeded' ? { video_url: `${origin}/simulator/gamma/videos/${id}.mp4` } : null,
      seed: task.body.seed ?? 42,
      resolution: task.body.resolution ?? '720p',
      ratio: task.body.ratio ?? '16:9',
      duration: task.body.duration ?? 5,
      framespersecond: 24,
      usage: finished ? { completion_tokens: 108900, total_tokens: 108900 } : undefined,
    };
  }

  async hasSucceeded(id: string): Promise<boolean> {
    const stored = await this.records.find<SimTask>(TASK, id);
    return !!stored && !stored.data.cancelled && this.now() - stored.createdAt >= RUNNING_UNTIL_MS && !wantsFailure(stored.data.prompt);
  }

  /** The provider's DELETE: a queued task is cancelled, a finished one's record deleted, a running one refused; null when unknown. */
  async cancelTask(id: string): Promise<SimCancelOutcome | null> {
    const stored = await this.records.find<SimTask>(TASK, id);
    if (!stored) return null;
    const age = this.now() - stored.createdAt;
    if (!stored.data.cancelled && age >= QUEUED_MS && age < RUNNING_UNTIL_MS) return 'running';
    if (!stored.data.cancelled && age < QUEUED_MS) {
      await this.records.update(TASK, id, { ...stored.data, cancelled: true });
      return 'cancelled';
    }
    await this.records.remove(TASK, id);
    return 'deleted';
  }
}

function toAsset(stored: SimulatorRecord<{ url: string; name: string }>): SimAsset {
  return { id: stored.key, groupId: stored.parentKey ?? '', url: stored.data.url, name: stored.data.name, createdAt: stored.createdAt };
}
