/**
 * fal's emulator (src/families/fal/emulator, the same one the embedded simulator runs) on a
 * loopback server of its own, its requests in memory, with a test key (channel api_key:
 * `apiKey`, `<key_id>:<key_secret>`). It checks `Authorization: Key ...` on every call but the
 * CDN. By default a request answers IN_QUEUE, IN_PROGRESS, then COMPLETED, one step per status
 * query; the result serves `GET /files/<id>.mp4` (no key, like fal's CDN) with `videoBytes`.
 * - `scriptNext([...])`: the next request's statuses, one per status query (the last repeats).
 * - `failNextSubmit({ status, body, headers? })`: the next submit answers this.
 * - `failNextRequest()`: the next accepted request ends failed (`runner_server_error`, fal's own).
 * - `defineEndpoint(id, schema)`: an endpoint an operator adds, with its input schema and output shape.
 */
import { FalEmulator, FalEndpointSchema, FalScriptedFailure, FalStep, FalSubmit } from '../../src/families/fal/emulator/fal-emulator';
import type { RecordedRequest } from './http-server';
import { ScriptedEmulatorServer, serveScriptedEmulator } from './scripted-emulator-server';

export type { FalStep };

export interface FalEmulatorServer extends ScriptedEmulatorServer<FalStep, FalScriptedFailure> {
  /** Every accepted submit: its endpoint id, input and request. */
  submits: FalSubmit[];
  failNextRequest(): void;
  defineEndpoint(endpointId: string, schema: FalEndpointSchema): void;
  /** Where a request is now (null: unknown), without counting a query. */
  stepOf(requestId: string): Promise<FalStep | null>;
  /** The cancels it was sent, in order. */
  cancels(): RecordedRequest[];
}

export async function startFalEmulator(options: { apiKey?: string } = {}): Promise<FalEmulatorServer> {
  const apiKey = options.apiKey ?? 'fal-test-key-id:fal-test-key-secret';
  const { emulator, served } = await serveScriptedEmulator(
    apiKey,
    (core) => new FalEmulator({ ...core, apiKey, defaultScript: ['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED'] }),
  );
  return {
    ...served,
    submits: emulator.submits,
    failNextRequest: () => emulator.failNextRequest(),
    defineEndpoint: (endpointId, schema) => emulator.defineEndpoint(endpointId, schema),
    stepOf: (requestId) => emulator.stepOf(requestId),
    cancels: () => served.requests.filter((r) => r.method === 'PUT' && r.path.endsWith('/cancel')),
  };
}
