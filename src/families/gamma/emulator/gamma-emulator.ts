import type { EmulatorRecords, EmulatorReply, EmulatorRequest, VideoSource } from '../../simulator-shared/emulator-http';
import { type GammaControlCall, GammaControlPlane } from './gamma-control-plane';
import { GammaDataPlane } from './gamma-data-plane';
import { GammaH5Pages } from './gamma-h5-pages';
import {
  type GammaAssetError,
  type GammaAssetStatus,
  GammaProviderState,
  type GammaTaskMove,
  type GammaTaskStatus,
  type GammaTimeline,
} from './gamma-provider-state';
import { type GammaScriptedError, GammaTestScripts } from './gamma-test-scripts';

export type { GammaControlCall, GammaAssetError, GammaAssetStatus, GammaTaskMove, GammaTaskStatus, GammaTimeline };

export interface GammaEmulatorOptions {
  /** The data plane's Bearer key. */
  apiKey: string;
  /** The control plane's key pair: the only signatures it accepts. */
  accessKey: string;
  secretKey: string;
  /** The region a signature must name; absent, any (the simulator answers whatever region a channel is set to). */
  region?: string;
  records: EmulatorRecords;
  /** The provider's clock: task and asset timelines, the H5 page's lifetime, the signature's X-Date check. */
  now: () => number;
  /** The bytes behind a succeeded task's video link. */
  video: VideoSource;
  timeline: GammaTimeline;
}

/**
 * The family C provider (docs/upstream-protocols.md, Family C), one emulator for the embedded
 * simulator (`timeline: 'clock'`, state in the gateway's database) and the tests (`'manual'`, state
 * in memory, moved by the test): the data plane (gamma-data-plane.ts), the signed control plane
 * (gamma-control-plane.ts) and the liveness H5 page it hands out (gamma-h5-pages.ts), over one
 * provider state (gamma-provider-state.ts). Tests also queue errors, hold submits and settle
 * sessions, assets and tasks; it logs control calls with their signature verdicts, and the ids it handed out.
 */
export class GammaEmulator {
  private readonly state: GammaProviderState;
  private readonly scripts = new GammaTestScripts();
  private readonly dataPlane: GammaDataPlane;
  private readonly controlPlane: GammaControlPlane;
  private readonly h5: GammaH5Pages;

  constructor(options: GammaEmulatorOptions) {
    this.state = new GammaProviderState(options.records, options.now, options.timeline);
    this.dataPlane = new GammaDataPlane({ apiKey: options.apiKey, video: options.video }, this.state, this.scripts);
    const account = { accessKey: options.accessKey, secretKey: options.secretKey, region: options.region ?? null };
    this.controlPlane = new GammaControlPlane(account, this.state, this.scripts, options.now);
    this.h5 = new GammaH5Pages(this.state, options.now);
  }

  /** A data plane request; `base` is where the data plane is mounted (`http://host/simulator/gamma`), for the video links. */
  handleDataPlane(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    return this.dataPlane.handle(req, base);
  }

  /**
   * A request below the control plane's mount: a signed call (`POST /`) or the H5 page (`GET /h5`,
   * `/h5/pass`, `/h5/fail`); `base` is that mount as a browser reaches it, for the H5 link.
   */
  handleControlPlane(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    return GammaH5Pages.serves(req) ? this.h5.handle(req) : this.controlPlane.handle(req, base);
  }

  /** Every control plane call (not the H5 page), oldest first. */
  get controlCalls(): readonly GammaControlCall[] {
    return this.controlPlane.calls;
  }

  /** The BytedTokens of the sessions it created, oldest first. */
  get sessionTokens(): readonly string[] {
    return this.controlPlane.sessionTokens;
  }

  /** The ids of the tasks it accepted, oldest first. */
  get taskIds(): readonly string[] {
    return this.dataPlane.taskIds;
  }

  /** Control actions answered unwrapped (their result fields beside `ResponseMetadata`). */
  get unwrapped(): Set<string> {
    return this.scripts.unwrapped;
  }

  /** The H5Link sessions hand out instead of the emulator's own page (null: its own). */
  set h5LinkFor(link: ((token: string) => string) | null) {
    this.scripts.h5LinkFor = link;
  }

  get h5LinkFor(): ((token: string) => string) | null {
    return this.scripts.h5LinkFor;
  }

  /** The next call of `action` (a control action, or `submit` / `query` / `cancel`) answers with this error. */
  failNext(action: string, error: GammaScriptedError): void {
    this.scripts.failNext(action, error);
  }

  /** Submits wait (unanswered) until the returned function is called. */
  holdSubmits(): () => void {
    return this.scripts.holdSubmits();
  }

  /** The liveness check of `token` passed, as if on the H5 page: GetVisualValidateResult returns the group from now on. */
  async passSession(token: string, groupId?: string): Promise<string> {
    const session = await this.state.session(token);
    if (!session) throw new Error(`gamma emulator: unknown token ${token}`);
    return (await this.state.answer(session, true, groupId))!;
  }

  async setAsset(id: string, status: GammaAssetStatus, error: GammaAssetError | null = null): Promise<void> {
    if (!(await this.state.setAsset(id, status, error))) throw new Error(`gamma emulator: unknown asset ${id}`);
  }

  async hasAsset(id: string): Promise<boolean> {
    return (await this.state.asset(id)) !== null;
  }

  /** The provider loses an asset (deleted elsewhere). */
  async forgetAsset(id: string): Promise<void> {
    await this.state.deleteAsset(id);
  }

  async setTask(id: string, move: GammaTaskMove): Promise<void> {
    if (!(await this.state.moveTask(id, move))) throw new Error(`gamma emulator: unknown task ${id}`);
  }

  /** A task's status now, or null when the provider has no such task (a DELETE of a finished one removes it). */
  taskStatus(id: string): Promise<GammaTaskStatus | null> {
    return this.state.taskStatus(id);
  }
}
