/**
 * The family C emulator (src/families/gamma/emulator, the same one the embedded simulator runs) on
 * a loopback server of its own, its state in memory, nothing moving by itself:
 *
 *   const fake = await startGammaEmulator();        // a channel: fake.channelBody()
 *
 * The data plane at the root (`/api/v3/contents/generations/tasks`, Bearer `apiKey`), the signed
 * control plane at `/control/` (`POST ?Action=..&Version=2024-01-01`, HMAC-SHA256 with `accessKey` /
 * `secretKey` in `region`, checked by the emulator's own implementation, not the gateway's) and the
 * H5 page it hands out at `/control/h5`. Tasks stay queued and assets Processing until the test
 * moves them (`setTask`, `setAsset`); `passSession` confirms a liveness check; `failNext` queues an
 * error for an action (or `submit` / `query` / `cancel`); `holdSubmits` keeps submits waiting.
 */
import { memoryRecords } from '../../src/families/simulator-shared/emulator-http';
import {
  GammaAssetError,
  GammaAssetStatus,
  GammaControlCall,
  GammaEmulator,
  GammaTaskMove,
  GammaTaskStatus,
} from '../../src/families/gamma/emulator/gamma-emulator';
import { serveEmulator, testVideoBytes } from './emulator-server';
import type { RecordedRequest } from './http-server';

const CONTROL = '/control';
const TASKS = '/api/v3/contents/generations/tasks';

export interface GammaEmulatorOptions {
  apiKey?: string;
  accessKey?: string;
  secretKey?: string;
  region?: string;
}

export interface GammaEmulatorServer {
  /** The channel's `base_url` (data plane). */
  url: string;
  /** The channel's `settings.control_base_url`. */
  controlUrl: string;
  apiKey: string;
  accessKey: string;
  secretKey: string;
  /** Every request the server received, in order. */
  requests: RecordedRequest[];
  /** Every control plane call with the emulator's signature verdict, in order. */
  readonly controlCalls: readonly GammaControlCall[];
  /** The task submits it received (refused ones too), in order. */
  readonly submits: RecordedRequest[];
  /** The DELETEs of tasks (cancels), in order. */
  readonly cancels: RecordedRequest[];
  /** The ids of the tasks it accepted, in order. */
  taskIds(): readonly string[];
  /** The BytedTokens of the sessions it created, in order. */
  sessionTokens(): readonly string[];
  /** The liveness check of `token` passed: GetVisualValidateResult returns the group (named `groupId` when given) from now on. */
  passSession(token: string, groupId?: string): Promise<string>;
  setAsset(id: string, status: GammaAssetStatus, error?: GammaAssetError): Promise<void>;
  hasAsset(id: string): Promise<boolean>;
  /** The provider loses the asset. */
  forgetAsset(id: string): Promise<void>;
  setTask(id: string, move: GammaTaskMove): Promise<void>;
  /** The task's status at the provider, null once it deleted the task. */
  taskStatus(id: string): Promise<GammaTaskStatus | null>;
  /** The next call of `action` (a control action, or `submit` / `query` / `cancel`) answers with this error. */
  failNext(action: string, status: number, code: string, message: string): void;
  /** Submits wait (unanswered) until the returned function is called: a provider slow to accept. */
  holdSubmits(): () => void;
  /** The provider's clock for the X-Date check and its records (set it to the gateway's test clock). */
  now: () => number;
  /** Control actions answered with their result fields at the top level (no `Result` wrapper). */
  unwrapped: Set<string>;
  /** When set, the H5Link CreateVisualValidateSession hands out (e.g. a `file://` link); null: the emulator's own page. */
  h5LinkFor: ((token: string) => string) | null;
  /** A channel on this provider, data and control plane. */
  channelBody(extra?: Record<string, unknown>): Record<string, unknown>;
  close(): Promise<void>;
}

export async function startGammaEmulator(options: GammaEmulatorOptions = {}): Promise<GammaEmulatorServer> {
  const apiKey = options.apiKey ?? 'gamma-data-key';
  const accessKey = options.accessKey ?? 'AKFAKEGAMMA';
  const secretKey = options.secretKey ?? 'fake-gamma-secret';
  let now: () => number = Date.now;
  const emulator = new GammaEmulator({
    apiKey,
    accessKey,
    secretKey,
    region: options.region ?? 'cn-beijing',
    records: memoryRecords(() => now()),
    now: () => now(),
    video: { bytes: testVideoBytes() },
    timeline: 'manual',
  });
  const server = await serveEmulator((req, base) => {
    if (req.path !== CONTROL && !req.path.startsWith(`${CONTROL}/`)) return emulator.handleDataPlane(req, base);
    return emulator.handleControlPlane({ ...req, path: req.path.slice(CONTROL.length) || '/' }, `${base}${CONTROL}`);
  });
  const ofTask = (method: string) => () =>
    server.requests.filter((r) => r.method === method && (method === 'POST' ? r.path === TASKS : r.path.startsWith(`${TASKS}/`)));
  return {
    url: server.url,
    controlUrl: `${server.url}${CONTROL}`,
    apiKey,
    accessKey,
    secretKey,
    requests: server.requests,
    get controlCalls() {
      return emulator.controlCalls;
    },
    get submits() {
      return ofTask('POST')();
    },
    get cancels() {
      return ofTask('DELETE')();
    },
    taskIds: () => emulator.taskIds,
    sessionTokens: () => emulator.sessionTokens,
    passSession: (token, groupId) => emulator.passSession(token, groupId),
    setAsset: (id, status, error) => emulator.setAsset(id, status, error ?? null),
    hasAsset: (id) => emulator.hasAsset(id),
    forgetAsset: (id) => emulator.forgetAsset(id),
    setTask: (id, move) => emulator.setTask(id, move),
    taskStatus: (id) => emulator.taskStatus(id),
    failNext: (action, status, code, message) => emulator.failNext(action, { status, code, message }),
    holdSubmits: () => emulator.holdSubmits(),
    get now() {
      return now;
    },
    set now(clock: () => number) {
      now = clock;
    },
    unwrapped: emulator.unwrapped,
    get h5LinkFor() {
      return emulator.h5LinkFor;
    },
    set h5LinkFor(link: ((token: string) => string) | null) {
      emulator.h5LinkFor = link;
    },
    channelBody(extra = {}) {
      return {
        name: 'fake-gamma',
        platform: 'gamma',
        base_url: server.url,
        api_key: apiKey,
        models: ['gamma-2-0', 'gamma-2-0-fast'],
        settings: { control_base_url: `${server.url}${CONTROL}`, access_key: accessKey, secret_key: secretKey, poll_interval_ms: 1000 },
        ...extra,
      };
    },
    close: () => server.close(),
  };
}
