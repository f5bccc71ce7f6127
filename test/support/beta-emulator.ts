/**
 * The family B emulator (src/families/beta/emulator, the same one the embedded simulator runs) on a
 * loopback server of its own, its tasks in memory, with the test key `beta-test-key`:
 *
 *   const fake = await startBetaEmulator();          // channel: betaChannelBody(fake)
 *
 * Submit and query need `Authorization: Bearer <key>` (401 InvalidApiKey), the submit also
 * `X-DashScope-Async: enable` (403 AccessDenied) and a body the models' rules accept. By default a
 * task answers PENDING, RUNNING, then SUCCEEDED, one step per query, repeating the last (unknown ids:
 * UNKNOWN); SUCCEEDED carries a signed video link serving `videoBytes` (no key) and usage numbers
 * written as floats (`5.0`). Its clock stands at 2026-01-01 12:00:00.123 UTC, so the provider's times
 * in its answers are fixed: scripts, not the clock, move its tasks.
 * - `scriptNext([...])`, `defaultScript`, `scriptTask(id, [...])`: a step is a status, an end
 *   `{ status: 'FAILED' | 'CANCELED' | 'UNKNOWN', code?, message? }`, or an HTTP answer for that one
 *   query `{ http, body? }` / `{ http, raw }` (bytes as they are).
 * - `failNextSubmit({ status, code?, message?, headers? })`, `failNextQuery(...)`: queued errors.
 * - `expireVideoLinks()`: the links handed out so far answer 403 (later queries sign anew).
 * - `serveMedia(name, bytes)`: input media at `${fake.url}/media/<name>` (Range honoured), not the provider's.
 * - Recorded traffic: `requests` (everything), `submits()`, `queries()`; `taskIds()` in order.
 */
import { memoryRecords } from '../../src/families/simulator-shared/emulator-http';
import { BETA_SERVED_MODELS, BetaEmulator, BetaScriptedError, BetaStep } from '../../src/families/beta/emulator/beta-emulator';
import { BETA_SUBMIT_PATH } from '../../src/families/beta/beta-protocol';
import type { BetaCapability } from '../../src/families/beta/beta-request';
import { serveEmulator, testVideoBytes } from './emulator-server';
import type { RecordedRequest } from './http-server';

export type { BetaScriptedError, BetaStep };

/** The instant the tests' family B provider lives at (its answers' submit_time). */
export const BETA_EMULATOR_TIME = Date.UTC(2026, 0, 1, 12, 0, 0, 123);

export interface BetaEmulatorServer {
  url: string;
  apiKey: string;
  /** Every request the server received, in order (input media included). */
  requests: RecordedRequest[];
  /** The script of every task not scripted with `scriptNext`. */
  defaultScript: BetaStep[];
  /** The bytes behind every finished task's video link. */
  videoBytes: Buffer;
  submits(): RecordedRequest[];
  queries(): RecordedRequest[];
  /** The provider's ids of the tasks it accepted, in order. */
  taskIds(): string[];
  scriptNext(steps: BetaStep[]): void;
  /** A task already sent follows these steps from its next query on. */
  scriptTask(id: string, steps: BetaStep[]): Promise<void>;
  failNextSubmit(error: BetaScriptedError): void;
  failNextQuery(error: BetaScriptedError): void;
  expireVideoLinks(): void;
  /** Serves input media at `${url}/media/<name>`; answers that URL. */
  serveMedia(name: string, bytes: Buffer): string;
  close(): Promise<void>;
}

/** Small but real file heads for the gateway's format sniffing. */
export const SAMPLE_MEDIA = {
  png: Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64)]),
  jpeg: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64)]),
  mp4: Buffer.concat([Buffer.from('\x00\x00\x00\x20ftypisom\x00\x00\x02\x00', 'latin1'), Buffer.alloc(64)]),
  html: Buffer.from('<!doctype html><html><body>not an image</body></html>'),
};

/** `models`: what it serves besides BETA_SERVED_MODELS (by capability), for a channel whose model_mapping names others. */
export async function startBetaEmulator(
  options: { apiKey?: string; models?: Record<string, BetaCapability> } = {},
): Promise<BetaEmulatorServer> {
  const apiKey = options.apiKey ?? 'beta-test-key';
  const videoBytes = testVideoBytes();
  const media = new Map<string, Buffer>();
  const emulator = new BetaEmulator({
    apiKey,
    models: { ...BETA_SERVED_MODELS, ...options.models },
    records: memoryRecords(() => BETA_EMULATOR_TIME),
    now: () => BETA_EMULATOR_TIME,
    video: { bytes: videoBytes },
    linkKey: () => 'beta-emulator-links',
    defaultScript: ['PENDING', 'RUNNING', 'SUCCEEDED'],
  });
  const server = await serveEmulator(async (req, base) => {
    if (!req.path.startsWith('/media/')) return emulator.handle(req, base);
    const bytes = media.get(req.path.slice('/media/'.length));
    return bytes
      ? { status: 200, video: { bytes } }
      : { status: 404, json: { code: 'NoSuchKey', message: 'The specified key does not exist.' } };
  });
  return {
    url: server.url,
    apiKey,
    requests: server.requests,
    get defaultScript() {
      return emulator.defaultScript ?? [];
    },
    set defaultScript(steps: BetaStep[]) {
      emulator.defaultScript = steps;
    },
    videoBytes,
    submits: () => server.requests.filter((r) => r.method === 'POST' && r.path === BETA_SUBMIT_PATH),
    queries: () => server.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/v1/tasks/')),
    taskIds: () => emulator.createdTaskIds(),
    scriptNext: (steps) => emulator.scriptNext(steps),
    scriptTask: (id, steps) => emulator.scriptTask(id, steps),
    failNextSubmit: (error) => emulator.failNextSubmit(error),
    failNextQuery: (error) => emulator.failNextQuery(error),
    expireVideoLinks: () => emulator.expireVideoLinks(),
    serveMedia(name, bytes) {
      media.set(name, bytes);
      return `${server.url}/media/${name}`;
    },
    close: () => server.close(),
  };
}

export const BETA_MODEL_IDS = ['beta-1.0-t2v', 'beta-1.0-i2v', 'beta-1.0-r2v', 'beta-1.0-video-edit'];

/** The admin API body of a channel pointing at the emulator. */
export const betaChannelBody = (fake: BetaEmulatorServer, extra: Record<string, unknown> = {}) => ({
  name: `beta-${fake.url}`,
  platform: 'beta',
  base_url: fake.url,
  api_key: fake.apiKey,
  models: BETA_MODEL_IDS,
  ...extra,
});
