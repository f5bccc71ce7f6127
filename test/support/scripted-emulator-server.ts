/**
 * A scripted family emulator (src/families/<family>/emulator, the same one the embedded simulator runs)
 * on a loopback server of its own, its tasks in memory, serving `testVideoBytes()` as every finished
 * video. Each family's test adapter (`start<Family>Emulator`) builds its emulator from `core` with its
 * key and default script, and adds what only its provider has (creates, cancels, ...).
 */
import type { EmulatorCallbacks } from '../../src/families/simulator-shared/emulator-callbacks';
import { EmulatorReply, EmulatorRequest, memoryRecords } from '../../src/families/simulator-shared/emulator-http';
import type { ScriptedEmulatorOptions } from '../../src/families/simulator-shared/scripted-emulator';
import { serveEmulator, testVideoBytes } from './emulator-server';
import type { RecordedRequest } from './http-server';

/** What a family emulator runs on in tests: in-memory records, the wall clock, the test video. */
export type EmulatorCore = Omit<ScriptedEmulatorOptions<unknown>, 'defaultScript'>;

/** The emulators this serves: a test's script and submit failures, callbacks, and the protocol's `handle`. */
export interface ServableEmulator {
  readonly callbacks: EmulatorCallbacks;
  scriptNext(steps: never[]): void;
  failNextSubmit(failure: never): void;
  handle(req: EmulatorRequest, base: string): Promise<EmulatorReply>;
}

type StepOf<E> = E extends { scriptNext(steps: Array<infer S>): void } ? S : never;
type FailureOf<E> = E extends { failNextSubmit(failure: infer F): void } ? F : never;

/** What every family's test emulator hands back. */
export interface ScriptedEmulatorServer<Step, Failure> {
  url: string;
  apiKey: string;
  /** Its provider's callbacks (providers that push): when they go out, and those sent. */
  callbacks: EmulatorCallbacks;
  /** Every request the server received, in order. */
  requests: RecordedRequest[];
  /** The bytes behind every finished task's video link. */
  videoBytes: Buffer;
  /** The next task follows these steps, one per query. */
  scriptNext(steps: Step[]): void;
  /** The next submit answers this failure instead. */
  failNextSubmit(failure: Failure): void;
  close(): Promise<void>;
}

/** Builds the emulator `make` returns on an in-memory core and serves it; `apiKey` is the one handed back. */
export async function serveScriptedEmulator<E extends ServableEmulator>(
  apiKey: string,
  make: (core: EmulatorCore) => E,
  options: { now?: () => number } = {},
): Promise<{ emulator: E; served: ScriptedEmulatorServer<StepOf<E>, FailureOf<E>> }> {
  const now = options.now ?? (() => Date.now());
  const videoBytes = testVideoBytes();
  const emulator = make({ records: memoryRecords(now), now, video: { bytes: videoBytes } });
  const server = await serveEmulator((req, base) => emulator.handle(req, base));
  const served: ScriptedEmulatorServer<StepOf<E>, FailureOf<E>> = {
    url: server.url,
    apiKey,
    callbacks: emulator.callbacks,
    requests: server.requests,
    videoBytes,
    scriptNext: (steps) => emulator.scriptNext(steps as never[]),
    failNextSubmit: (failure) => emulator.failNextSubmit(failure as never),
    close: () => server.close(),
  };
  return { emulator, served };
}
