/**
 * DashScope's emulator for Wan (src/families/wan/emulator, the same one the embedded simulator runs)
 * on a loopback server of its own, its tasks in memory, with the test key `sk-test0000key0001` (sent as
 * `Authorization: Bearer <key>`). By default a task answers PENDING, RUNNING, then SUCCEEDED, one step
 * per query; `GET /oss/<id>.mp4` serves `videoBytes` (no key, like DashScope's OSS links).
 * - `scriptNext([...])`: a step is `PENDING | RUNNING | SUCCEEDED | CANCELED | UNKNOWN` or `{ failed: code }`.
 * - `failNextSubmit({ status, code, headers? })`: the next create answers DashScope's error body.
 */
import { memoryRecords } from '../../src/families/simulator-shared/emulator-http';
import { WanCreate, WanEmulator, WanScriptedFailure, WanStep } from '../../src/families/wan/emulator/wan-emulator';
import type { FetchedSource } from '../../src/families/simulator-shared/source-video-fetch';
import { serveEmulator, testVideoBytes } from './emulator-server';
import type { RecordedRequest } from './http-server';

export type { WanStep };

export interface WanEmulatorServer {
  url: string;
  apiKey: string;
  /** Every request the server received, in order. */
  requests: RecordedRequest[];
  /** The bytes behind every finished task's video link. */
  videoBytes: Buffer;
  /** Every accepted create, with its JSON body and request. */
  creates: WanCreate[];
  /** Every source video an edit or extension fetched (its URL, bytes, and facts when readable). */
  sourceFetches: FetchedSource[];
  /** Every cancel the server received. */
  cancels(): RecordedRequest[];
  scriptNext(steps: WanStep[]): void;
  failNextSubmit(failure: WanScriptedFailure): void;
  close(): Promise<void>;
}

export async function startWanEmulator(options: { apiKey?: string } = {}): Promise<WanEmulatorServer> {
  const apiKey = options.apiKey ?? 'sk-test0000key0001';
  const videoBytes = testVideoBytes();
  const emulator = new WanEmulator({
    apiKey,
    records: memoryRecords(() => Date.now()),
    now: () => Date.now(),
    video: { bytes: videoBytes },
    defaultScript: ['PENDING', 'RUNNING', 'SUCCEEDED'],
  });
  const server = await serveEmulator((req, base) => emulator.handle(req, base));
  return {
    url: server.url,
    apiKey,
    requests: server.requests,
    videoBytes,
    creates: emulator.creates,
    sourceFetches: emulator.sourceFetches,
    cancels: () => server.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel')),
    scriptNext: (steps) => emulator.scriptNext(steps),
    failNextSubmit: (failure) => emulator.failNextSubmit(failure),
    close: () => server.close(),
  };
}
