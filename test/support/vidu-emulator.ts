/**
 * Vidu's emulator (src/families/vidu/emulator, the same one the embedded simulator runs) on a
 * loopback server of its own, its tasks in memory, with the test key `vda_test-key-0001` (sent as
 * `Authorization: Token <key>`). By default a task answers created, queueing, processing, then
 * success, one step per query; `GET /cdn/<id>.mp4` serves `videoBytes` (no key, like Vidu's CDN).
 * - `scriptNext([...])`: a step is `created | queueing | processing | success` or `{ failed: err_code }`.
 * - `failNextSubmit({ status, reason, headers? })`: the next create answers Vidu's error body.
 */
import type { EmulatorCallbacks } from '../../src/families/simulator-shared/emulator-callbacks';
import { memoryRecords } from '../../src/families/simulator-shared/emulator-http';
import { ViduCreate, ViduEmulator, ViduScriptedFailure, ViduStep } from '../../src/families/vidu/emulator/vidu-emulator';
import { serveEmulator, testVideoBytes } from './emulator-server';
import type { RecordedRequest } from './http-server';

export type { ViduStep };

export interface ViduEmulatorServer {
  url: string;
  apiKey: string;
  /** Its provider's callbacks (providers that push): when they go out, and those sent. */
  callbacks: EmulatorCallbacks;
  /** Every request the server received, in order. */
  requests: RecordedRequest[];
  /** The bytes behind every finished task's CDN link. */
  videoBytes: Buffer;
  /** Every accepted create, with its endpoint, JSON body and request. */
  creates: ViduCreate[];
  /** Every cancel the server received. */
  cancels(): RecordedRequest[];
  scriptNext(steps: ViduStep[]): void;
  failNextSubmit(failure: ViduScriptedFailure): void;
  close(): Promise<void>;
}

export async function startViduEmulator(options: { apiKey?: string } = {}): Promise<ViduEmulatorServer> {
  const apiKey = options.apiKey ?? 'vda_test-key-0001';
  const videoBytes = testVideoBytes();
  const emulator = new ViduEmulator({
    apiKey,
    records: memoryRecords(() => Date.now()),
    now: () => Date.now(),
    video: { bytes: videoBytes },
    defaultScript: ['created', 'queueing', 'processing', 'success'],
  });
  const server = await serveEmulator((req, base) => emulator.handle(req, base));
  return {
    url: server.url,
    apiKey,
    requests: server.requests,
    videoBytes,
    creates: emulator.creates,
    cancels: () => server.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel')),
    callbacks: emulator.callbacks,
    scriptNext: (steps) => emulator.scriptNext(steps),
    failNextSubmit: (failure) => emulator.failNextSubmit(failure),
    close: () => server.close(),
  };
}
