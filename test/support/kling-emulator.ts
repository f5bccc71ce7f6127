/**
 * Kling's emulator (src/families/kling/emulator, the same one the embedded simulator runs) on a
 * loopback server of its own, its tasks in memory, with a test key pair (channel api_key:
 * `apiKey`, `<access>:<secret>`). It checks the JWT of every API call as Kling does (HS256 with the
 * secret key of the access key in `iss`; 401 with 1001-1004). By default a task answers submitted,
 * processing, then succeed, one step per query, on its own endpoint's path; `GET /cdn/<id>.mp4`
 * serves `videoBytes` (no key, like Kling's CDN); a `video_list` video is fetched from its URL (`sourceFetches`).
 * - `scriptNext([...])`: a step is `submitted | processing | succeed` or `{ failed: msg }`.
 * - `failNextSubmit({ status, code, headers? })`: the next create answers Kling's error body.
 * - `failEverySubmit(failure | null)`: every create answers it, until healed with null.
 */
import {
  KlingCreate,
  KlingEmulator,
  KlingScriptedFailure,
  KlingStep,
  KlingTokenClaims,
} from '../../src/families/kling/emulator/kling-emulator';
import type { FetchedSource } from '../../src/families/simulator-shared/source-video-fetch';
import type { RecordedRequest } from './http-server';
import { ScriptedEmulatorServer, serveScriptedEmulator } from './scripted-emulator-server';

export type { KlingStep };

export interface KlingEmulatorServer extends ScriptedEmulatorServer<KlingStep, KlingScriptedFailure> {
  accessKey: string;
  secretKey: string;
  /** Every accepted create, with its endpoint, JSON body and request. */
  creates: KlingCreate[];
  /** The claims of every token that passed, in order. */
  tokens: KlingTokenClaims[];
  /** Every source video an omni-video create fetched from its `video_list` URL (its URL, bytes, and facts when readable). */
  sourceFetches: FetchedSource[];
  failEverySubmit(failure: KlingScriptedFailure | null): void;
  cdnRequests(): RecordedRequest[];
}

export async function startKlingEmulator(options: { accessKey?: string; secretKey?: string } = {}): Promise<KlingEmulatorServer> {
  const accessKey = options.accessKey ?? 'AKFAKEKLING0001';
  const secretKey = options.secretKey ?? 'fake-kling-secret-0001';
  const { emulator, served } = await serveScriptedEmulator(
    `${accessKey}:${secretKey}`,
    (core) => new KlingEmulator({ ...core, accessKey, secretKey, defaultScript: ['submitted', 'processing', 'succeed'] }),
  );
  return {
    ...served,
    accessKey,
    secretKey,
    creates: emulator.creates,
    tokens: emulator.tokens,
    sourceFetches: emulator.sourceFetches,
    failEverySubmit: (failure) => emulator.failEverySubmit(failure),
    cdnRequests: () => served.requests.filter((r) => r.path.startsWith('/cdn/')),
  };
}
