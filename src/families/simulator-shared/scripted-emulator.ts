import type { ScriptedSteps } from '../shared/emulator-steps';
import type { AskedVideo, EmulatorRecords, EmulatorReply, EmulatorRequest, VideoSource } from './emulator-http';
import { deliveredVideo } from './emulator-http';
import { keepInLog } from './emulator-log';
import { EmulatorCallbacks } from './emulator-callbacks';

/** A provider forgets a task a day after it was created, unless its emulator says otherwise. */
const FORGET_AFTER_MS = 24 * 3600_000;

/** What every scripted emulator runs on: its records, its clock, the video its finished tasks serve, and a test's script. */
export interface ScriptedEmulatorOptions<Step> {
  records: EmulatorRecords;
  now: () => number;
  /** The bytes behind a finished task's video link. */
  video: VideoSource;
  /** A script every new task follows (tests); absent, tasks follow the clock. */
  defaultScript?: Step[];
}

/** A submit failure a test queued: this status, JSON body and headers answered instead of the next submit. */
export interface ScriptedFailure {
  status: number;
  /** Absent, the emulator's own error body for a failure of its provider. */
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * The reply of a queued submit failure. Without a `fallback` its body is answered as the test gave it;
 * with one, the fallback stands for a body the test left out (or left null), as the emulator's
 * provider would word the failure.
 */
export function scriptedFailureReply(failure: ScriptedFailure, fallback?: unknown): EmulatorReply {
  const json = fallback === undefined ? failure.body : (failure.body ?? fallback);
  return { status: failure.status, headers: failure.headers, json };
}

/**
 * What the scripted provider emulators share, whatever protocol they speak: the log of the requests
 * they were sent, the controls a test uses (the script of the next task, failures answered instead
 * of the next submits), forgetting old tasks, and serving a finished task's video. A subclass speaks
 * its provider's protocol.
 */
export abstract class ScriptedEmulator<Step, Failure, Options extends ScriptedEmulatorOptions<Step> = ScriptedEmulatorOptions<Step>> {
  /** Every request, oldest first (the last EMULATOR_LOG_LIMIT). */
  readonly requests: EmulatorRequest[] = [];
  /** Its provider's callbacks (providers that push): sent when a submit named a callback URL. */
  readonly callbacks = new EmulatorCallbacks();
  /** The script of every new task when no `scriptNext` is pending (tests); none: the clock. */
  defaultScript: Step[] | undefined;
  private nextScript: Step[] | null = null;
  private readonly submitFailures: Failure[] = [];

  constructor(
    protected readonly options: Options,
    private readonly forgetAfterMs = FORGET_AFTER_MS,
  ) {
    this.defaultScript = options.defaultScript;
  }

  /** The next task follows these steps, one per query (tests). */
  scriptNext(steps: Step[]): void {
    this.nextScript = steps;
  }

  /** The next submit answers this failure instead (tests). */
  failNextSubmit(failure: Failure): void {
    this.submitFailures.push(failure);
  }

  protected logRequest(req: EmulatorRequest): void {
    keepInLog(this.requests, req);
  }

  /** The failure queued for this submit, used up; undefined when none is. */
  protected takeSubmitFailure(): Failure | undefined {
    return this.submitFailures.shift();
  }

  /** What a new task keeps of the script it follows (used up): the script and no query yet, or nothing (the clock). */
  protected takeScript(): ScriptedSteps<Step> {
    const script = this.nextScript ?? this.defaultScript;
    this.nextScript = null;
    return script ? { script, queries: 0 } : {};
  }

  /** Forgets the records of these kinds that are older than the provider keeps them (done before a new task is stored). */
  protected async forgetOld(...kinds: string[]): Promise<void> {
    const cutoff = this.options.now() - this.forgetAfterMs;
    for (const kind of kinds) await this.options.records.forgetOlderThan(kind, cutoff);
  }

  /** A finished task's video, made to what it asked. */
  protected async videoReply(asked: AskedVideo): Promise<EmulatorReply> {
    return { status: 200, video: await deliveredVideo(this.options.video, asked) };
  }

  /**
   * The video of the task of this kind and id at a link that needs no key: a 404 unless `finished`
   * says the task is done with a video now (without counting a query), as a CDN has no file before.
   */
  protected async finishedVideo<T extends { asked?: AskedVideo }>(
    kind: string,
    id: string,
    finished: (task: T, createdAt: number) => boolean,
  ): Promise<EmulatorReply> {
    const record = await this.options.records.find<T>(kind, id);
    if (!record || !finished(record.data, record.createdAt)) return { status: 404, text: 'not found' };
    return this.videoReply(record.data.asked ?? {});
  }
}
