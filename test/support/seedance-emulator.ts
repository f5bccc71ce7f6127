/**
 * Seedance's emulator (src/families/seedance/emulator, the same one the embedded simulator runs) on a
 * loopback server of its own, its tasks in memory, with the test key (sent as `Authorization: Bearer
 * <key>`). By default a task answers queued, running, then succeeded, one step per query; the video
 * link (`/tos/<id>.mp4?X-Tos-Expires=...`) serves `videoBytes` with no key, like Ark's object store.
 * - `scriptNext([...])`: a step is `queued | running | succeeded | expired | cancelled` or `{ failed: code }`.
 * - `failNextSubmit({ status, code, headers? })`: the next create answers Ark's error body.
 */
import {
  SeedanceCreate,
  SeedanceEmulator,
  SeedanceScriptedFailure,
  SeedanceStep,
} from '../../src/families/seedance/emulator/seedance-emulator';
import type { FetchedSource } from '../../src/families/simulator-shared/source-video-fetch';
import type { RecordedRequest } from './http-server';
import { ScriptedEmulatorServer, serveScriptedEmulator } from './scripted-emulator-server';

export type { SeedanceStep };

export interface SeedanceEmulatorServer extends ScriptedEmulatorServer<SeedanceStep, SeedanceScriptedFailure> {
  /** Every accepted create, with its JSON body and request. */
  creates: SeedanceCreate[];
  /** Every source video an edit or extension fetched (its URL, bytes, and facts when readable). */
  sourceFetches: FetchedSource[];
  /** Every DELETE the server received. */
  deletes(): RecordedRequest[];
}

export async function startSeedanceEmulator(options: { apiKey?: string } = {}): Promise<SeedanceEmulatorServer> {
  const apiKey = options.apiKey ?? 'ark-test-key-0001';
  const { emulator, served } = await serveScriptedEmulator(
    apiKey,
    (core) => new SeedanceEmulator({ ...core, apiKey, defaultScript: ['queued', 'running', 'succeeded'] }),
  );
  return {
    ...served,
    creates: emulator.creates,
    sourceFetches: emulator.sourceFetches,
    deletes: () => served.requests.filter((r) => r.method === 'DELETE'),
  };
}
