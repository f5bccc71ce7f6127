/**
 * xAI's emulator (src/families/xai/emulator, the same one the embedded simulator runs) on a loopback
 * server of its own, its requests in memory, with the test key `xai-testKey000000000000000001` (sent as
 * Bearer). By default a request answers a 202 with no body, a pending 202, then done, one step per
 * query; `GET /vidgen/xai-video-<id>.mp4` serves `videoBytes` (no key).
 * - `scriptNext([...])`: a step is `empty | pending | done | moderated | expired` or `{ failed: code }`.
 * - `failNextSubmit({ status, body, headers? })`: the next create answers that instead.
 */
import { memoryRecords } from '../../src/families/simulator-shared/emulator-http';
import { XaiCreate, XaiEmulator, XaiScriptedFailure, XaiStep } from '../../src/families/xai/emulator/xai-emulator';
import type { FetchedSource } from '../../src/families/simulator-shared/source-video-fetch';
import { serveEmulator, testVideoBytes } from './emulator-server';
import type { RecordedRequest } from './http-server';

export type { XaiStep };

export interface XaiEmulatorServer {
  url: string;
  apiKey: string;
  /** Every request the server received, in order. */
  requests: RecordedRequest[];
  /** The bytes behind every finished request's video link. */
  videoBytes: Buffer;
  /** Every accepted create, with its JSON body and request. */
  creates: XaiCreate[];
  /** Every source video an edit or extension fetched (its URL, bytes, and facts when readable). */
  sourceFetches: FetchedSource[];
  scriptNext(steps: XaiStep[]): void;
  failNextSubmit(failure: XaiScriptedFailure): void;
  close(): Promise<void>;
}

export async function startXaiEmulator(options: { apiKey?: string } = {}): Promise<XaiEmulatorServer> {
  const apiKey = options.apiKey ?? 'xai-testKey000000000000000001';
  const videoBytes = testVideoBytes();
  const emulator = new XaiEmulator({
    apiKey,
    records: memoryRecords(() => Date.now()),
    now: () => Date.now(),
    video: { bytes: videoBytes },
    defaultScript: ['empty', 'pending', 'done'],
  });
  const server = await serveEmulator((req, base) => emulator.handle(req, base));
  return {
    url: server.url,
    apiKey,
    requests: server.requests,
    videoBytes,
    creates: emulator.creates,
    sourceFetches: emulator.sourceFetches,
    scriptNext: (steps) => emulator.scriptNext(steps),
    failNextSubmit: (failure) => emulator.failNextSubmit(failure),
    close: () => server.close(),
  };
}
