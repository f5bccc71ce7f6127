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
import type { EmulatorCallbacks } from '../../src/families/simulator-shared/emulator-callbacks';
import { memoryRecords } from '../../src/families/simulator-shared/emulator-http';
import {
  ReplicateCreate,
  ReplicateEmulator,
  ReplicateModelSchema,
  ReplicateScriptedFailure,
  ReplicateStep,
} from '../../src/families/replicate/emulator/replicate-emulator';
import { serveEmulator, testVideoBytes } from './emulator-server';
import type { RecordedRequest } from './http-server';

export type { ReplicateStep };

export interface ReplicateEmulatorServer {
  url: string;
  apiKey: string;
  /** Its provider's callbacks (providers that push): when they go out, and those sent. */
  callbacks: EmulatorCallbacks;
  /** Every request the server received, in order. */
  requests: RecordedRequest[];
  /** The bytes behind every finished prediction's output. */
  videoBytes: Buffer;
  /** Every accepted create: the model (or version), its input and the request. */
  creates: ReplicateCreate[];
  scriptNext(steps: ReplicateStep[]): void;
  failNextCreate(failure: ReplicateScriptedFailure): void;
  defineModel(model: string, schema: ReplicateModelSchema): void;
  /** The cancels it was sent, in order. */
  cancels(): RecordedRequest[];
  close(): Promise<void>;
}

export async function startReplicateEmulator(options: { apiKey?: string; now?: () => number } = {}): Promise<ReplicateEmulatorServer> {
  const apiKey = options.apiKey ?? 'r8_replicate_test_token';
  const now = options.now ?? (() => Date.now());
  const videoBytes = testVideoBytes();
  const emulator = new ReplicateEmulator({
    apiToken: apiKey,
    records: memoryRecords(now),
    now,
    video: { bytes: videoBytes },
    defaultScript: ['starting', 'processing', 'succeeded'],
  });
  const server = await serveEmulator((req, base) => emulator.handle(req, base));
  return {
    url: server.url,
    apiKey,
    requests: server.requests,
    videoBytes,
    creates: emulator.creates,
    callbacks: emulator.callbacks,
    scriptNext: (steps) => emulator.scriptNext(steps),
    failNextCreate: (failure) => emulator.failNextCreate(failure),
    defineModel: (model, schema) => emulator.defineModel(model, schema),
    cancels: () => server.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel')),
    close: () => server.close(),
  };
}
