import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { randomBase62 } from '../../../common/random-id';

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

export interface SimTask {
  id: string;
  body: Record<string, unknown>;
  prompt: string;
  createdAt: number;
}

const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');

/** In-memory state of the embedded family C provider; time comes from the gateway's Clock. */
@Injectable()
export class GammaSimulatorStore {
  private readonly sessions = new Map<string, SimSession>();
  private readonly groups = new Set<string>();
  private readonly assets = new Map<string, SimAsset>();
  private readonly tasks = new Map<string, SimTask>();

  constructor(private readonly clock: Clock) {}

  now(): number {
    return this.clock.now();
  }

  createSession(callbackUrl: string): SimSession {
    const session = { token: `bt-${randomBase62(24)}`, callbackUrl, createdAt: this.now(), answeredAt: null, groupId: null };
    this.sessions.set(session.token, session);
    return session;
  }

  session(token: string): SimSession | undefined {
    return this.sessions.get(token);
  }

  /** The H5 page can still be answered: known, unused, within its lifetime. */
  openSession(token: string): SimSession | undefined {
    const session = this.sessions.get(token);
    if (!session || session.answeredAt !== null || this.now() - session.createdAt > H5_LIFETIME_MS) return undefined;
    return session;
  }

  /** Answers the H5 page; a pass creates the person's portrait group. */
  answer(session: SimSession, passed: boolean): void {
    session.answeredAt = this.now();
    if (passed) {
      session.groupId = `group-${stamp(this.now())}-${randomBase62(10).toLowerCase()}`;
      this.groups.add(session.groupId);
    }
  }

  hasGroup(groupId: string): boolean {
    return this.groups.has(groupId);
  }

  createAsset(input: { groupId: string; url: string; name: string }): SimAsset {
    const asset = { id: `asset-${stamp(this.now())}-${randomBase62(10).toLowerCase()}`, ...input, createdAt: this.now() };
    this.assets.set(asset.id, asset);
    return asset;
  }

  asset(id: string): SimAsset | undefined {
    return this.assets.get(id);
  }

  assetsOf(groupIds: string[] | undefined): SimAsset[] {
    return [...this.assets.values()].filter((asset) => !groupIds || groupIds.includes(asset.groupId));
  }

  deleteAsset(id: string): boolean {
    return this.assets.delete(id);
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

  isActiveAsset(id: string): boolean {
    const asset = this.assets.get(id);
    return !!asset && this.assetView(asset).Status === 'Active';
  }

  createTask(body: Record<string, unknown>, prompt: string): SimTask {
    const task = { id: `cgt-${new Date(this.now()).toISOString().replace(/\D/g, '').slice(0, 14)}-${randomBase62(5).toLowerCase()}`, body, prompt, createdAt: this.now() };
    this.tasks.set(task.id, task);
    return task;
  }

  /** The query body of the protocol document, following the simulated timeline. */
  taskView(id: string, origin: string): Record<string, unknown> | undefined {
    const task = this.tasks.get(id);
    if (!task) return undefined;
    const age = this.now() - task.createdAt;
    const finished = age >= RUNNING_UNTIL_MS;
    const status = age < QUEUED_MS ? 'queued' : !finished ? 'running' : wantsFailure(task.prompt) ? 'failed' : 'succeeded';
    return {
      id: task.id,
      model: task.body.model,
      status,
      error: status === 'failed' ? { code: 'InternalServiceError', message: 'the simulator failed this task on request ([simulate:fail])' } : null,
      created_at: Math.floor(task.createdAt / 1000),
      updated_at: Math.floor(this.now() / 1000),
      content: status === 'succeeded' ? { video_url: `${origin}/simulator/gamma/videos/${task.id}.mp4` } : null,
      seed: task.body.seed ?? 42,
      resolution: task.body.resolution ?? '720p',
      ratio: task.body.ratio ?? '16:9',
      duration: task.body.duration ?? 5,
      framespersecond: 24,
      usage: finished ? { completion_tokens: 108900, total_tokens: 108900 } : undefined,
    };
  }

  hasSucceeded(id: string): boolean {
    const task = this.tasks.get(id);
    return !!task && this.now() - task.createdAt >= RUNNING_UNTIL_MS && !wantsFailure(task.prompt);
  }
}
