/**
 * MiniMax's emulator (src/families/minimax/emulator, the same one the embedded simulator runs) on a
 * loopback server of its own, its tasks in memory, with the test key `minimax-test-key`:
 *
 *   const fake = await startMinimaxEmulator();       // channel base_url: fake.url, api_key: fake.apiKey
 *
 * Every API call (submit, query, files/retrieve) needs `Authorization: Bearer <key>`; a wrong key is
 * HTTP 200 with `base_resp.status_code` 1004, as MiniMax answers. By default a task answers Queueing,
 * Processing, then Success, one step per query; `GET /v1/files/retrieve?file_id=` hands out a pre-signed
 * download URL (`/cdn/<file>/output.mp4?Expires&Signature`, checked, no key) serving `videoBytes`.
 * - `scriptNext([...])`: steps `Queueing`, `Processing`, `Success` or `{ fail: code }`.
 * - `failNextSubmit(code)`: the next submit answers HTTP 200 with this `base_resp` code (v2: its error envelope for that code).
 * The v2 API (MiniMax-H3) is served beside: `POST /v2/video_generation`, `GET /v2/query/video_generation/{id}` (the URL inline).
 */
import type { EmulatorCallbacks } from '../../src/families/simulator-shared/emulator-callbacks';
import { memoryRecords } from '../../src/families/simulator-shared/emulator-http';
import { MinimaxEmulator, MinimaxStep } from '../../src/families/minimax/emulator/minimax-emulator';
import { serveEmulator, testVideoBytes } from './emulator-server';
import type { RecordedRequest } from './http-server';

export type { MinimaxStep };

export interface MinimaxEmulatorServer {
  url: string;
  apiKey: string;
  /** Its provider's callbacks (providers that push): when they go out, and those sent. */
  callbacks: EmulatorCallbacks;
  /** Every request the server received, in order. */
  requests: RecordedRequest[];
  /** The bytes behind every finished task's download URL. */
  videoBytes: Buffer;
  /** The JSON bodies of every submit, in order (refused ones too). */
  submits(): Array<Record<string, unknown>>;
  /** The same of the v2 API's (`POST /v2/video_generation`). */
  v2Submits(): Array<Record<string, unknown>>;
  downloads(): RecordedRequest[];
  scriptNext(steps: MinimaxStep[]): void;
  failNextSubmit(code: number): void;
  close(): Promise<void>;
}

export async function startMinimaxEmulator(options: { apiKey?: string } = {}): Promise<MinimaxEmulatorServer> {
  const apiKey = options.apiKey ?? 'minimax-test-key';
  const videoBytes = testVideoBytes();
  const emulator = new MinimaxEmulator({
    apiKey,
    records: memoryRecords(() => Date.now()),
    now: () => Date.now(),
    video: { bytes: videoBytes },
    defaultScript: ['Queueing', 'Processing', 'Success'],
  });
  const server = await serveEmulator((req, base) => emulator.handle(req, base));
  return {
    url: server.url,
    apiKey,
    requests: server.requests,
    videoBytes,
    submits: () =>
      server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/video_generation').map((r) => r.json as Record<string, unknown>),
    v2Submits: () =>
      server.requests.filter((r) => r.method === 'POST' && r.path === '/v2/video_generation').map((r) => r.json as Record<string, unknown>),
    downloads: () => server.requests.filter((r) => r.path.startsWith('/cdn/')),
    callbacks: emulator.callbacks,
    scriptNext: (steps) => emulator.scriptNext(steps),
    failNextSubmit: (code) => emulator.failNextSubmit(code),
    close: () => server.close(),
  };
}
