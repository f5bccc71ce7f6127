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
import { MinimaxEmulator, MinimaxStep } from '../../src/families/minimax/emulator/minimax-emulator';
import type { RecordedRequest } from './http-server';
import { ScriptedEmulatorServer, serveScriptedEmulator } from './scripted-emulator-server';

export type { MinimaxStep };

/** `failNextSubmit(code)`: the `base_resp` code of the next submit. */
export interface MinimaxEmulatorServer extends ScriptedEmulatorServer<MinimaxStep, number> {
  /** The JSON bodies of every submit, in order (refused ones too). */
  submits(): Array<Record<string, unknown>>;
  /** The same of the v2 API's (`POST /v2/video_generation`). */
  v2Submits(): Array<Record<string, unknown>>;
  downloads(): RecordedRequest[];
}

export async function startMinimaxEmulator(options: { apiKey?: string } = {}): Promise<MinimaxEmulatorServer> {
  const apiKey = options.apiKey ?? 'minimax-test-key';
  const { served } = await serveScriptedEmulator(
    apiKey,
    (core) => new MinimaxEmulator({ ...core, apiKey, defaultScript: ['Queueing', 'Processing', 'Success'] }),
  );
  const posted = (path: string) =>
    served.requests.filter((r) => r.method === 'POST' && r.path === path).map((r) => r.json as Record<string, unknown>);
  return {
    ...served,
    submits: () => posted('/v1/video_generation'),
    v2Submits: () => posted('/v2/video_generation'),
    downloads: () => served.requests.filter((r) => r.path.startsWith('/cdn/')),
  };
}
