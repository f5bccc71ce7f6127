/**
 * Runway's emulator (src/families/runway/emulator, the same one the embedded simulator runs) on a
 * loopback server of its own, its tasks in memory, with the test key `key_runway-test`. By default
 * a task answers PENDING, RUNNING, then SUCCEEDED, one step per query; `scriptNext` sets the next
 * task's steps, `finish` moves a task by itself, `failNextSubmit` queues a submit error, `holdDeletes`
 * holds DELETEs until released.
 */
import { memoryRecords } from '../../src/families/simulator-shared/emulator-http';
import { RunwayEmulator, RunwayStep, ScriptedFailure } from '../../src/families/runway/emulator/runway-emulator';
import type { FetchedSource } from '../../src/families/simulator-shared/source-video-fetch';
import { serveEmulator, testVideoBytes } from './emulator-server';
import type { RecordedRequest } from './http-server';

export type { RunwayStep };

export interface RunwayEmulatorServer {
  url: string;
  apiKey: string;
  /** Every request the server received, in order. */
  requests: RecordedRequest[];
  /** The bytes behind every finished task's output link. */
  videoBytes: Buffer;
  submits(): RecordedRequest[];
  downloads(): RecordedRequest[];
  deletes(): RecordedRequest[];
  scriptNext(steps: RunwayStep[]): void;
  finish(id: string, step?: RunwayStep): Promise<void>;
  failNextSubmit(failure: ScriptedFailure): void;
  holdDeletes(): () => void;
  /** The provider's ids of the tasks it was sent, in order. */
  taskIds(): string[];
  /** Every source video a video_to_video fetched (its URL, bytes, and facts when readable). */
  sourceFetches: FetchedSource[];
  /** Whether the provider still has the task (a DELETE of a finished one removes it). */
  hasTask(id: string): Promise<boolean>;
  close(): Promise<void>;
}

export async function startRunwayEmulator(options: { apiKey?: string } = {}): Promise<RunwayEmulatorServer> {
  const apiKey = options.apiKey ?? 'key_runway-test';
  const videoBytes = testVideoBytes();
  const records = memoryRecords(() => Date.now());
  const emulator = new RunwayEmulator({
    apiKey,
    records,
    now: () => Date.now(),
    video: { bytes: videoBytes },
    defaultScript: ['PENDING', 'RUNNING', 'SUCCEEDED'],
  });
  const server = await serveEmulator((req, base) => emulator.handle(req, base));
  const byMethod = (method: string) => () => server.requests.filter((r) => r.method === method);
  return {
    url: server.url,
    apiKey,
    requests: server.requests,
    videoBytes,
    submits: byMethod('POST'),
    downloads: () => server.requests.filter((r) => r.path.startsWith('/outputs/')),
    deletes: byMethod('DELETE'),
    scriptNext: (steps) => emulator.scriptNext(steps),
    finish: (id, step) => emulator.finish(id, step),
    failNextSubmit: (failure) => emulator.failNextSubmit(failure),
    holdDeletes: () => emulator.holdDeletes(),
    taskIds: () => emulator.createdTaskIds(),
    sourceFetches: emulator.sourceFetches,
    hasTask: async (id) => (await records.find('runway.task', id)) !== null,
    close: () => server.close(),
  };
}
