/**
 * Veo's emulator (src/families/veo/emulator, the same one the embedded simulator runs) on a loopback
 * server of its own, its operations in memory, with the test key `veo-test-key`:
 *
 *   const fake = await startVeoEmulator();          // channel base_url: fake.url, api_key: fake.apiKey
 *
 * Every call must carry `x-goog-api-key` (the file download too), else Google's 400 API_KEY_INVALID.
 * `POST /v1beta/models/<model>:predictLongRunning` answers `{name: models/<model>/operations/op<n>}`;
 * `GET /v1beta/<name>` answers the operation's script one step per query, repeating the last;
 * `GET /v1beta/files/op<n>:download?alt=media` answers a 302 to `/storage/op<n>` on another origin (no key
 * needed there, a signed storage URL), which serves `videoBytes`.
 * Gemini Omni: `POST /v1beta/interactions` answers `{id: v1_op<n>, status: in_progress}`; `GET /v1beta/interactions/v1_op<n>`
 * follows the same scripts (to `completed` with a Files URI, the same download); `POST …/cancel` ends it `cancelled`.
 * - steps: 'running' | 'done' | 'moderation' | 'cancelled' | { error: code } | { body }; `scriptNext([...])`, `defaultScript`.
 * - `failNextSubmit({ status, body?, headers? })` (either create); `submits()` (both creates); `interactions()` (Omni's
 *   creates); `cancels()`; `downloads()`; `storageRequests()`.
 */
import { memoryRecords } from '../../src/families/simulator-shared/emulator-http';
import { API_KEY_INVALID, googleError, VeoEmulator, VeoScriptedFailure, VeoStep } from '../../src/families/veo/emulator/veo-emulator';
import { serveEmulator, testVideoBytes } from './emulator-server';
import type { RecordedRequest } from './http-server';

export { API_KEY_INVALID, googleError };
export type { VeoStep };

export interface VeoEmulatorServer {
  url: string;
  apiKey: string;
  /** Every request the API's server received, in order. */
  requests: RecordedRequest[];
  /** The script of every operation not scripted with `scriptNext`. */
  defaultScript: VeoStep[];
  videoBytes: Buffer;
  submits(): RecordedRequest[];
  /** The Interactions API creates (Gemini Omni). */
  interactions(): RecordedRequest[];
  cancels(): RecordedRequest[];
  /** The key-protected file downloads (each answered with a redirect to storage). */
  downloads(): RecordedRequest[];
  /** What the signed storage origin was asked (after the redirect). */
  storageRequests(): RecordedRequest[];
  scriptNext(steps: VeoStep[]): void;
  failNextSubmit(failure: VeoScriptedFailure): void;
  close(): Promise<void>;
}

export async function startVeoEmulator(options: { apiKey?: string } = {}): Promise<VeoEmulatorServer> {
  const apiKey = options.apiKey ?? 'veo-test-key';
  const videoBytes = testVideoBytes();
  let operations = 0;
  const emulator = new VeoEmulator({
    apiKey,
    records: memoryRecords(() => Date.now()),
    now: () => Date.now(),
    video: { bytes: videoBytes },
    defaultScript: ['running', 'done'],
    operationId: () => `op${++operations}`,
  });
  let apiUrl = '';
  // The signed storage is another origin: the key sent to the API's origin never follows the redirect there.
  const storage = await serveEmulator((req) =>
    req.path.startsWith('/storage/') ? emulator.handle(req, apiUrl) : Promise.resolve({ status: 404, text: 'Not Found' }),
  );
  const server = await serveEmulator((req, base) => emulator.handle(req, base, storage.url));
  apiUrl = server.url;
  return {
    url: server.url,
    apiKey,
    requests: server.requests,
    get defaultScript() {
      return emulator.defaultScript ?? [];
    },
    set defaultScript(steps: VeoStep[]) {
      emulator.defaultScript = steps;
    },
    videoBytes,
    submits: () =>
      server.requests.filter((r) => r.method === 'POST' && (r.path.endsWith(':predictLongRunning') || r.path === '/v1beta/interactions')),
    interactions: () => server.requests.filter((r) => r.method === 'POST' && r.path === '/v1beta/interactions'),
    cancels: () => server.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel')),
    downloads: () => server.requests.filter((r) => r.path.includes(':download')),
    storageRequests: () => storage.requests,
    scriptNext: (steps) => emulator.scriptNext(steps),
    failNextSubmit: (failure) => emulator.failNextSubmit(failure),
    close: async () => {
      await server.close();
      await storage.close();
    },
  };
}
