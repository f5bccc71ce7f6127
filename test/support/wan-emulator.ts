/**
 * DashScope's emulator for Wan (src/families/wan/emulator, the same one the embedded simulator runs)
 * on a loopback server of its own, its tasks in memory, with the test key `sk-test0000key0001` (sent as
 * `Authorization: Bearer <key>`). By default a task answers PENDING, RUNNING, then SUCCEEDED, one step
 * per query; `GET /oss/<id>.mp4` serves `videoBytes` (no key, like DashScope's OSS links).
 * - `scriptNext([...])`: a step is `PENDING | RUNNING | SUCCEEDED | CANCELED | UNKNOWN` or `{ failed: code }`.
 * - `failNextSubmit({ status, code, headers? })`: the next create answers DashScope's error body.
 */
import { WanCreate, WanEmulator, WanScriptedFailure, WanStep } from '../../src/families/wan/emulator/wan-emulator';
import type { FetchedSource } from '../../src/families/simulator-shared/source-video-fetch';
import type { RecordedRequest } from './http-server';
import { ScriptedEmulatorServer, serveScriptedEmulator } from './scripted-emulator-server';

export type { WanStep };

export interface WanEmulatorServer extends ScriptedEmulatorServer<WanStep, WanScriptedFailure> {
  /** Every accepted create, with its JSON body and request. */
  creates: WanCreate[];
  /** Every source video an edit or extension fetched (its URL, bytes, and facts when readable). */
  sourceFetches: FetchedSource[];
  /** Every cancel the server received. */
  cancels(): RecordedRequest[];
}

export async function startWanEmulator(options: { apiKey?: string } = {}): Promise<WanEmulatorServer> {
  const apiKey = options.apiKey ?? 'sk-test0000key0001';
  const { emulator, served } = await serveScriptedEmulator(
    apiKey,
    (core) => new WanEmulator({ ...core, apiKey, defaultScript: ['PENDING', 'RUNNING', 'SUCCEEDED'] }),
  );
  return {
    ...served,
    creates: emulator.creates,
    sourceFetches: emulator.sourceFetches,
    cancels: () => served.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel')),
  };
}
