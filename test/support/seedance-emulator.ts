/**
 * Seedance's emulator (src/families/seedance/emulator, the same one the embedded simulator runs) on a
 * loopback server of its own, its tasks in memory, with the test key (sent as `Authorization: Bearer
 * <key>`). By default a task answers queued, running, then succeeded, one step per query; the video
 * link (`/tos/<id>.mp4?X-Tos-Expires=...`) serves `videoBytes` with no key, like Ark's object store.
 * - `scriptNext([...])`: a step is `queued | running | succeeded | expired | cancelled` or `{ failed: code }`.
 * - `failNextSubmit({ status, code, headers? })`: the next create answers Ark's error body.
 */
import type { EmulatorCallbacks } from '../../src/families/simulator-shared/emulator-callbacks';
import { memoryRecords } from '../../src/families/simulator-shared/emulator-http';
import {
  SeedanceCreate,
  SeedanceEmulator,
  SeedanceScriptedFailure,
  SeedanceStep,
} from '../../src/families/seedance/emulator/seedance-emulator';
import type { FetchedSource } from '../../src/families/simulator-shared/source-video-fetch';
import { serveEmulator, testVideoBytes } from './emulator-server';
import type { RecordedRequest } from './http-server';

export type { SeedanceStep };

export interface SeedanceEmulatorServer {
  url: string;
  apiKey: string;
  /** Its provider's callbacks (providers that push): when they go out, and those sent. */
  callbacks: EmulatorCallbacks;
  requests: RecordedRequest[];
  videoBytes: Buffer;
  /** Every accepted create, with its JSON body and request. */
  creates: SeedanceCreate[];
  /** Every source video an edit or extension fetched (its URL, bytes, and facts when readable). */
  sourceFetches: FetchedSource[];
  /** Every DELETE the server received. */
  deletes(): RecordedRequest[];
  scriptNext(steps: SeedanceStep[]): void;
  failNextSubmit(failure: SeedanceScriptedFailure): void;
  close(): Promise<void>;
}

export async function startSeedanceEmulator(options: { apiKey?: string } = {}): Promise<SeedanceEmulatorServer> {
  const apiKey = options.apiKey ?? 'ark-test-key-0001';
  const videoBytes = testVideoBytes();
  const emulator = new SeedanceEmulator({
    apiKey,
    records: memoryRecords(() => Date.now()),
    now: () => Date.now(),
    video: { bytes: videoBytes },
    defaultScript: ['queued', 'running', 'succeeded'],
  });
  const server = await serveEmulator((req, base) => emulator.handle(req, base));
  return {
    url: server.url,
    apiKey,
    requests: server.requests,
    videoBytes,
    creates: emulator.creates,
    sourceFetches: emulator.sourceFetches,
    deletes: () => server.requests.filter((r) => r.method === 'DELETE'),
    callbacks: emulator.callbacks,
    scriptNext: (steps) => emulator.scriptNext(steps),
    failNextSubmit: (failure) => emulator.failNextSubmit(failure),
    close: () => server.close(),
  };
}
