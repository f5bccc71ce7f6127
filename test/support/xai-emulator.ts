/**
 * xAI's emulator (src/families/xai/emulator, the same one the embedded simulator runs) on a loopback
 * server of its own, its requests in memory, with the test key `xai-testKey000000000000000001` (sent as
 * Bearer). By default a request answers a 202 with no body, a pending 202, then done, one step per
 * query; `GET /vidgen/xai-video-<id>.mp4` serves `videoBytes` (no key).
 * - `scriptNext([...])`: a step is `empty | pending | done | moderated | expired` or `{ failed: code }`.
 * - `failNextSubmit({ status, body, headers? })`: the next create answers that instead.
 */
import { XaiCreate, XaiEmulator, XaiScriptedFailure, XaiStep } from '../../src/families/xai/emulator/xai-emulator';
import type { FetchedSource } from '../../src/families/simulator-shared/source-video-fetch';
import { ScriptedEmulatorServer, serveScriptedEmulator } from './scripted-emulator-server';

export type { XaiStep };

export interface XaiEmulatorServer extends ScriptedEmulatorServer<XaiStep, XaiScriptedFailure> {
  /** Every accepted create, with its JSON body and request. */
  creates: XaiCreate[];
  /** Every source video an edit or extension fetched (its URL, bytes, and facts when readable). */
  sourceFetches: FetchedSource[];
}

export async function startXaiEmulator(options: { apiKey?: string } = {}): Promise<XaiEmulatorServer> {
  const apiKey = options.apiKey ?? 'xai-testKey000000000000000001';
  const { emulator, served } = await serveScriptedEmulator(
    apiKey,
    (core) => new XaiEmulator({ ...core, apiKey, defaultScript: ['empty', 'pending', 'done'] }),
  );
  return { ...served, creates: emulator.creates, sourceFetches: emulator.sourceFetches };
}
