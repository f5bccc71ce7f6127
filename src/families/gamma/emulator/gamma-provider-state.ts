import { randomBase62 } from '../../../common/runtime/random-id';
import type { SimulatorRecord } from '../../simulator-shared/simulator-records.service';
import type { EmulatorRecords } from '../../simulator-shared/emulator-http';

/** How long the H5 page accepts a check (the provider's is about 120 s). */
export const H5_LIFETIME_MS = 120_000;
/** The clock's timeline of a task: queued, then running, then done. */
export const SIMULATED_QUEUED_MS = 2_000;
export const SIMULATED_DONE_MS = 8_000;
/** How long an asset is Processing on the clock's timeline. */
export const SIMULATED_ASSET_PROCESSING_MS = 2_000;
/** Markers that make a task (in its prompt) or an asset (in its URL) fail. */
const FAIL_MARKERS = ['[simulate:fail]', 'simulate-fail'];
const wantsFailure = (text: string) => FAIL_MARKERS.some((marker) => text.includes(marker));

export type GammaTaskStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'expired';
export type GammaAssetStatus = 'Processing' | 'Active' | 'Failed';
export interface GammaError {
  code: string;
  message: string;
}
export interface GammaAssetError {
  Code: string;
  Message: string;
}

/**
 * Where tasks and assets go by themselves: `clock`, the simulator's (a task is queued 2 s, runs until
 * 8 s, then ends, failed for a `[simulate:fail]` prompt; an asset is Processing 2 s, then Active, or
 * Failed for a URL with `simulate-fail`), or `manual`, the tests' (queued and Processing until a test moves them).
 */
export type GammaTimeline = 'clock' | 'manual';

/** What a test set on a task: its status from now on, the error it failed with, the link it succeeded with (null: none). */
export interface GammaTaskMove {
  status: GammaTaskStatus;
  error?: GammaError | null;
  videoUrl?: string | null;
}

export interface GammaSession {
  token: string;
  callbackUrl: string;
  createdAt: number;
  /** Set once the H5 page was answered (pass or fail): single use. */
  answeredAt: number | null;
  groupId: string | null;
}

interface StoredSession {
  callbackUrl: string;
  answeredAt: number | null;
  groupId: string | null;
}

interface StoredAsset {
  url: string;
  name: string;
  /** What a test set, over the timeline. */
  status?: GammaAssetStatus;
  error?: GammaAssetError | null;
}

interface StoredTask {
  body: Record<string, unknown>;
  prompt: string;
  /** Cancelled while queued: reads `cancelled` from then on. */
  cancelled?: boolean;
  moved?: GammaTaskMove;
}

/** What a cancel (DELETE) did: cancelled a queued task, deleted any other, or was refused for a running one. */
export type GammaCancelOutcome = 'cancelled' | 'deleted' | 'running';

const SESSION = 'gamma.session';
const GROUP = 'gamma.group';
const ASSET = 'gamma.asset';
const TASK = 'gamma.task';

const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');

/**
 * The family C provider's state (sessions, groups, assets, tasks) in the emulator's records (the
 * gateway's database for the simulator, so a restart forgets none of it; memory in tests), and the
 * provider's views of it.
 */
export class GammaProviderState {
  constructor(
    private readonly records: EmulatorRecords,
    private readonly now: () => number,
    private readonly timeline: GammaTimeline,
  ) {}

  async createSession(callbackUrl: string): Promise<GammaSession> {
    const token = `bt-${randomBase62(24)}`;
    const stored = await this.records.insertOrGet<StoredSession>(SESSION, token, { callbackUrl, answeredAt: null, groupId: null });
    return { token, ...stored.data, createdAt: stored.createdAt };
  }

  async session(token: string): Promise<GammaSession | null> {
    const stored = await this.records.find<StoredSession>(SESSION, token);
    return stored ? { token, ...stored.data, createdAt: stored.createdAt } : null;
  }

  /** The H5 page can still be answered: known, unused, within its lifetime. */
  async openSession(token: string): Promise<GammaSession | null> {
    const session = await this.session(token);
    if (!session || session.answeredAt !== null || this.now() - session.createdAt > H5_LIFETIME_MS) return null;
    return session;
  }

  /** Answers the liveness check; a pass creates the person's portrait group (named `groupId` when given). Returns the group. */
  async answer(session: GammaSession, passed: boolean, groupId?: string): Promise<string | null> {
    const group = passed ? (groupId ?? `group-${stamp(this.now())}-${randomBase62(10).toLowerCase()}`) : null;
    if (group) await this.records.insertOrGet(GROUP, group, {});
    await this.records.update<StoredSession>(SESSION, session.token, {
      callbackUrl: session.callbackUrl,
      answeredAt: this.now(),
      groupId: group,
    });
    return group;
  }

  async hasGroup(groupId: string): Promise<boolean> {
    return (await this.records.find(GROUP, groupId)) !== null;
  }

  async createAsset(input: { groupId: string; url: string; name: string }): Promise<string> {
    const id = `asset-${stamp(this.now())}-${randomBase62(10).toLowerCase()}`;
    await this.records.insertOrGet<StoredAsset>(ASSET, id, { url: input.url, name: input.name }, input.groupId);
    return id;
  }

  /** The provider's view of an asset (GetAsset), or null when it has none. */
  async asset(id: string): Promise<Record<string, unknown> | null> {
    const stored = await this.records.find<StoredAsset>(ASSET, id);
    return stored ? this.assetView(stored) : null;
  }

  /** The views of the assets of these groups (all when none given), oldest first. */
  async assetsOf(groupIds: string[] | undefined): Promise<Record<string, unknown>[]> {
    const stored = await this.records.list<StoredAsset>(ASSET, { parentKeys: groupIds, limit: 10_000 });
    return stored.reverse().map((asset) => this.assetView(asset));
  }

  async isActiveAsset(id: string): Promise<boolean> {
    return (await this.asset(id))?.Status === 'Active';
  }

  async deleteAsset(id: string): Promise<boolean> {
    return this.records.remove(ASSET, id);
  }

  /** A test settles an asset; false when there is no such asset. */
  async setAsset(id: string, status: GammaAssetStatus, error: GammaAssetError | null): Promise<boolean> {
    const stored = await this.records.find<StoredAsset>(ASSET, id);
    if (!stored) return false;
    await this.records.update<StoredAsset>(ASSET, id, { ...stored.data, status, error });
    return true;
  }

  async createTask(body: Record<string, unknown>, prompt: string): Promise<string> {
    const id = `cgt-${new Date(this.now()).toISOString().replace(/\D/g, '').slice(0, 14)}-${randomBase62(8).toLowerCase()}`;
    await this.records.insertOrGet<StoredTask>(TASK, id, { body, prompt });
    return id;
  }

  /** A task's status now, or null when the provider has no such task. */
  async taskStatus(id: string): Promise<GammaTaskStatus | null> {
    const stored = await this.records.find<StoredTask>(TASK, id);
    return stored ? this.statusOf(stored) : null;
  }

  /** A task's submit body as the provider received it, or null when it has no such task. */
  async taskBody(id: string): Promise<Record<string, unknown> | null> {
    return (await this.records.find<StoredTask>(TASK, id))?.data.body ?? null;
  }

  /** The query answer of the protocol document; `videoBase` is where this provider serves its videos. */
  async taskView(id: string, videoBase: string): Promise<Record<string, unknown> | null> {
    const stored = await this.records.find<StoredTask>(TASK, id);
    if (!stored) return null;
    const { body, moved } = stored.data;
    const status = this.statusOf(stored);
    const error = status !== 'failed' ? null : moved ? (moved.error ?? null) : FAILED_ON_REQUEST;
    const videoUrl = moved && moved.videoUrl !== undefined ? moved.videoUrl : `${videoBase}/videos/${id}.mp4`;
    const ended = status === 'succeeded' || status === 'failed';
    return {
      id,
      model: body.model,
      status,
      error,
      created_at: Math.floor(stored.createdAt / 1000),
      updated_at: Math.floor(this.now() / 1000),
      content: status === 'succeeded' ? { video_url: videoUrl } : null,
      seed: body.seed ?? 42,
      resolution: body.resolution ?? '720p',
      ratio: body.ratio ?? '16:9',
      duration: body.duration ?? 5,
      framespersecond: 24,
      usage: ended ? { completion_tokens: 108900, total_tokens: 108900 } : undefined,
    };
  }

  /** A test moves a task; false when there is no such task. */
  async moveTask(id: string, move: GammaTaskMove): Promise<boolean> {
    const stored = await this.records.find<StoredTask>(TASK, id);
    if (!stored) return false;
    await this.records.update<StoredTask>(TASK, id, { ...stored.data, moved: { ...stored.data.moved, ...move } });
    return true;
  }

  /** The provider's DELETE: a queued task is cancelled, a running one refused, any other's record deleted; null when unknown. */
  async cancelTask(id: string): Promise<GammaCancelOutcome | null> {
    const stored = await this.records.find<StoredTask>(TASK, id);
    if (!stored) return null;
    const status = this.statusOf(stored);
    if (status === 'running') return 'running';
    if (status === 'queued') {
      await this.records.update<StoredTask>(TASK, id, { ...stored.data, cancelled: true });
      return 'cancelled';
    }
    await this.records.remove(TASK, id);
    return 'deleted';
  }

  private statusOf({ data, createdAt }: SimulatorRecord<StoredTask>): GammaTaskStatus {
    if (data.cancelled) return 'cancelled';
    if (data.moved) return data.moved.status;
    if (this.timeline === 'manual') return 'queued';
    const age = this.now() - createdAt;
    if (age < SIMULATED_QUEUED_MS) return 'queued';
    if (age < SIMULATED_DONE_MS) return 'running';
    return wantsFailure(data.prompt) ? 'failed' : 'succeeded';
  }

  private assetView({ key, parentKey, data, createdAt }: SimulatorRecord<StoredAsset>): Record<string, unknown> {
    let status: GammaAssetStatus = data.status ?? 'Processing';
    let error = data.error ?? null;
    if (!data.status && this.timeline === 'clock' && this.now() - createdAt >= SIMULATED_ASSET_PROCESSING_MS) {
      status = wantsFailure(data.url) ? 'Failed' : 'Active';
      if (status === 'Failed') error = FACE_MISMATCH;
    }
    return {
      Id: key,
      GroupId: parentKey ?? '',
      Status: status,
      AssetType: 'Image',
      URL: data.url,
      Name: data.name,
      CreateTime: new Date(createdAt).toISOString(),
      Error: error,
    };
  }
}

const FAILED_ON_REQUEST: GammaError = {
  code: 'InternalServiceError',
  message: 'the simulator failed this task on request ([simulate:fail])',
};
const FACE_MISMATCH: GammaAssetError = { Code: 'FaceMismatch', Message: 'the face in the image does not match the verified person' };
