/**
 * Vidu's emulator (src/families/vidu/emulator, the same one the embedded simulator runs) on a
 * loopback server of its own, its tasks in memory, with the test key `vda_test-key-0001` (sent as
 * `Authorization: Token <key>`). By default a task answers created, queueing, processing, then
 * success, one step per query; `GET /cdn/<id>.mp4` serves `videoBytes` (no key, like Vidu's CDN).
 * - `scriptNext([...])`: a step is `created | queueing | processing | success` or `{ failed: err_code }`.
 * - `failNextSubmit({ status, reason, headers? })`: the next create answers Vidu's error body.
 */
import { ViduCreate, ViduEmulator, ViduScriptedFailure, ViduStep } from '../../src/families/vidu/emulator/vidu-emulator';
import type { RecordedRequest } from './http-server';
import { ScriptedEmulatorServer, serveScriptedEmulator } from './scripted-emulator-server';

export type { ViduStep };

export interface ViduEmulatorServer extends ScriptedEmulatorServer<ViduStep, ViduScriptedFailure> {
  /** Every accepted create, with its endpoint, JSON body and request. */
  creates: ViduCreate[];
  /** Every cancel the server received. */
  cancels(): RecordedRequest[];
}

export async function startViduEmulator(options: { apiKey?: string } = {}): Promise<ViduEmulatorServer> {
  const apiKey = options.apiKey ?? 'vda_test-key-0001';
  const { emulator, served } = await serveScriptedEmulator(
    apiKey,
    (core) => new ViduEmulator({ ...core, apiKey, defaultScript: ['created', 'queueing', 'processing', 'success'] }),
  );
  return {
    ...served,
    creates: emulator.creates,
    cancels: () => served.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel')),
  };
}
