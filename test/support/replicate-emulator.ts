/**
 * Replicate's emulator (src/families/replicate/emulator, the same one the embedded simulator runs)
 * on a loopback server of its own, its predictions in memory, with a test token (channel api_key:
 * `apiKey`, sent as Bearer). By default a prediction answers starting, processing, then its end
 * (succeeded with `output` at `GET /files/<id>.mp4`, no key, serving `videoBytes`; a marked prompt
 * fails), one step per query.
 * - `scriptNext([...])`: the next prediction's statuses, one per query (the last repeats).
 * - `failNextCreate({ status, body, headers? })`: the next create answers this.
 * - `defineModel(owner/name, schema)`: a model an operator adds, with its input schema and output shape.
 */
import {
  ReplicateCreate,
  ReplicateEmulator,
  ReplicateModelSchema,
  ReplicateScriptedFailure,
  ReplicateStep,
} from '../../src/families/replicate/emulator/replicate-emulator';
import type { RecordedRequest } from './http-server';
import { ScriptedEmulatorServer, serveScriptedEmulator } from './scripted-emulator-server';

export type { ReplicateStep };

/** Replicate's word for a submit is a create: `failNextCreate` stands for `failNextSubmit`. */
export interface ReplicateEmulatorServer extends Omit<ScriptedEmulatorServer<ReplicateStep, ReplicateScriptedFailure>, 'failNextSubmit'> {
  /** Every accepted create: the model (or version), its input and the request. */
  creates: ReplicateCreate[];
  failNextCreate(failure: ReplicateScriptedFailure): void;
  defineModel(model: string, schema: ReplicateModelSchema): void;
  /** The cancels it was sent, in order. */
  cancels(): RecordedRequest[];
}

export async function startReplicateEmulator(options: { apiKey?: string; now?: () => number } = {}): Promise<ReplicateEmulatorServer> {
  const apiKey = options.apiKey ?? 'r8_replicate_test_token';
  const { emulator, served } = await serveScriptedEmulator(
    apiKey,
    (core) => new ReplicateEmulator({ ...core, apiToken: apiKey, defaultScript: ['starting', 'processing', 'succeeded'] }),
    { now: options.now },
  );
  const { failNextSubmit: _createIsTheSubmit, ...common } = served;
  return {
    ...common,
    creates: emulator.creates,
    failNextCreate: (failure) => emulator.failNextCreate(failure),
    defineModel: (model, schema) => emulator.defineModel(model, schema),
    cancels: () => served.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel')),
  };
}
