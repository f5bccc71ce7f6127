import { randomBytes, randomUUID } from 'node:crypto';
import type { AskedVideo, EmulatorReply, EmulatorRequest } from '../../simulator-shared/emulator-http';
import { EmulatorGate } from '../../simulator-shared/emulator-gate';
import { fileLinkMatch } from '../../simulator-shared/file-link';
import { markedEnd } from '../../simulator-shared/prompt-markers';
import { jsonFieldsOf } from '../../simulator-shared/request-fields';
import {
  ScriptedEmulator,
  type ScriptedEmulatorOptions,
  type ScriptedFailure,
  scriptedFailureReply,
} from '../../simulator-shared/scripted-emulator';
import { RUNWAY_MODELS, RunwayBuiltinModel } from '../runway-models';
import { RUNWAY_API_VERSION, type RunwayTask } from '../runway-protocol';
import { stepOfQuery, stepNow } from '../../shared/emulator-steps';
import { type FetchedSource, fetchSourceVideo } from '../../simulator-shared/source-video-fetch';

/** A task's status in a script: one per query (the last repeats), or where the provider moved it by itself. */
export type RunwayStep = 'PENDING' | 'THROTTLED' | 'RUNNING' | 'SUCCEEDED' | { status: 'FAILED'; failureCode: string };

export const SIMULATED_PENDING_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
const TASK = 'runway.task';
/** The states in which Runway's DELETE cancels a task (in any other it deletes the task). */
const RUNS = new Set(['PENDING', 'THROTTLED', 'RUNNING']);
const GEN4_RATIOS = ['1280:720', '720:1280', '1104:832', '832:1104', '960:960', '1584:672'];
/**
 * The models Runway serves: the builtin ones, and gen5 (2 to 15 s, every gen4 ratio for text and
 * image), which an operator adds as a catalog entry.
 */
const SERVED: Readonly<Record<string, RunwayBuiltinModel>> = {
  ...RUNWAY_MODELS,
  gen5: {
    textToVideo: true,
    durations: Array.from({ length: 14 }, (_, index) => index + 2),
    defaultDuration: 5,
    textRatios: GEN4_RATIOS,
    imageRatios: GEN4_RATIOS,
    veo: false,
  },
};

interface EmulatedTask {
  model: string;
  /** The signed output's token (`?_jwt=`), like Runway's CloudFront links. */
  token: string;
  failureCode: string | null;
  cancelled: boolean;
  /** What the request asked of the video (absent on older records): the output is made to it. */
  duration?: number;
  /** `<w>:<h>` pixels. */
  ratio?: string;
  audio?: boolean;
  /** A test's script: the status of each query in turn; absent, the status follows the clock. */
  script?: RunwayStep[];
  queries?: number;
  /** Where a test moved the task by itself (`finish`), whatever the script or the clock says. */
  moved?: RunwayStep;
}

/** Absent a script, tasks follow the clock: PENDING 2 s, RUNNING until 6 s, then done. */
export interface RunwayEmulatorOptions extends ScriptedEmulatorOptions<RunwayStep> {
  apiKey: string;
}

/** A submit failure a test queued (the runway test support names it from here). */
export type { ScriptedFailure };

/**
 * Runway's API (docs/upstream-protocols.md, Family Runway), one emulator for the embedded simulator
 * and the tests: Bearer key and `X-Runway-Version: 2024-11-06` on every call (401 / 400 otherwise),
 * `text_to_video` and `image_to_video` checked against the models' rules, `video_to_video` (aleph2:
 * the source at `videoUri` fetched and read, 2 to 30 s, the output its length and frame), task queries, `DELETE`
 * that cancels a task still PENDING, THROTTLED or RUNNING and deletes one in any other state (later
 * queries: 404), and the video at a signed output link that needs no key. Prompt markers:
 * `[simulate:reject]` a validation 400, `[simulate:busy]` a 429, `[simulate:credits]` the no-credits
 * 400, `[simulate:moderation]` FAILED with `SAFETY.INPUT.TEXT`, `[simulate:fail]` with `INTERNAL`.
 * Tests also script statuses, move a task by themselves, queue submit failures and hold DELETEs.
 */
export class RunwayEmulator extends ScriptedEmulator<RunwayStep, ScriptedFailure, RunwayEmulatorOptions> {
  private readonly deletes = new EmulatorGate();
  private readonly taskIds: string[] = [];
  /** Every source video a video-to-video fetched, oldest first. */
  readonly sourceFetches: FetchedSource[] = [];

  /** Answers one request; `outputBase` is where this emulator's output links start (`http://host/simulator/runway`). */
  async handle(req: EmulatorRequest, outputBase: string): Promise<EmulatorReply> {
    this.logRequest(req);
    const output = fileLinkMatch(req, /^\/outputs\/([^/]+)\.mp4$/);
    if (output) return this.output(output[1], req.query.get('_jwt'));
    const refused = this.refusedCredentials(req);
    if (refused) return refused;
    if (req.method === 'POST' && (req.path === '/v1/text_to_video' || req.path === '/v1/image_to_video'))
      return this.create(req, req.path === '/v1/image_to_video');
    if (req.method === 'POST' && req.path === '/v1/video_to_video') return this.createFromVideo(req);
    const one = /^\/v1\/tasks\/([^/]+)$/.exec(req.path);
    if (!one) return { status: 404, json: { error: 'Not found' } };
    if (req.method === 'DELETE') return this.cancelOrDelete(one[1]);
    if (req.method !== 'GET') return { status: 405, json: { error: 'Method not allowed' } };
    const task = await this.query(one[1], outputBase);
    return task ? { status: 200, json: task } : { status: 404, json: { error: 'Task not found' } };
  }

  /** The provider moves the task on by itself (SUCCEEDED unless told), whether or not anybody queries it. */
  async finish(id: string, step: RunwayStep = 'SUCCEEDED'): Promise<void> {
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record) throw new Error(`runway emulator: unknown task ${id}`);
    await this.options.records.update(TASK, id, { ...record.data, moved: step });
  }

  /** DELETEs are logged on arrival but carried out and answered only once the returned function is called. */
  holdDeletes(): () => void {
    return this.deletes.hold();
  }

  /** The ids of the tasks it was sent, in order. */
  createdTaskIds(): string[] {
    return [...this.taskIds];
  }

  private refusedCredentials(req: EmulatorRequest): EmulatorReply | null {
    if (req.headers.authorization !== `Bearer ${this.options.apiKey}`)
      return { status: 401, json: { error: 'Invalid API key. (simulated)' } };
    if (req.headers['x-runway-version'] !== RUNWAY_API_VERSION)
      return { status: 400, json: { error: `The X-Runway-Version header must be ${RUNWAY_API_VERSION}. (simulated)` } };
    return null;
  }

  private async create(req: EmulatorRequest, image: boolean): Promise<EmulatorReply> {
    const failure = this.takeSubmitFailure();
    if (failure) return scriptedFailureReply(failure, { error: 'failure at http://10.0.0.1/internal' });
    const body = jsonFieldsOf(req);
    const { model } = body;
    const rules = typeof model === 'string' && Object.hasOwn(SERVED, model) ? SERVED[model] : undefined;
    if (!rules || rules.videoToVideo || (!image && !rules.textToVideo)) return invalid('invalid_value', ['model']);
    if (image && body.promptImage === undefined) return invalid('invalid_type', ['promptImage']);
    if (typeof body.duration !== 'number' || !rules.durations.includes(body.duration)) return invalid('invalid_value', ['duration']);
    if (!(image ? rules.imageRatios : rules.textRatios).includes(String(body.ratio))) return invalid('invalid_value', ['ratio']);
    return this.accept(body, { duration: body.duration, ratio: String(body.ratio) });
  }

  /** `POST /v1/video_to_video` (aleph2): `videoUri` fetched as Runway would, of 2 to 30 s; the output is the source's length and frame. */
  private async createFromVideo(req: EmulatorRequest): Promise<EmulatorReply> {
    const failure = this.takeSubmitFailure();
    if (failure) return scriptedFailureReply(failure, { error: 'failure at http://10.0.0.1/internal' });
    const body = jsonFieldsOf(req);
    if (typeof body.model !== 'string' || !SERVED[body.model]?.videoToVideo) return invalid('invalid_value', ['model']);
    if (typeof body.videoUri !== 'string') return invalid('invalid_type', ['videoUri']);
    const refused = ['ratio', 'duration', 'promptImage'].find((key) => body[key] !== undefined);
    if (refused) return invalid('unrecognized_keys', [refused]);
    if (typeof body.promptText === 'string' && body.promptText.length > 1000) return invalid('too_big', ['promptText']);
    const source = await fetchSourceVideo(body.videoUri);
    if (!source) return { status: 400, json: { error: 'The video at videoUri could not be fetched. (simulated)' } };
    if (source.seconds !== null && (source.seconds < 2 || source.seconds > 30)) return invalid('custom', ['videoUri']);
    this.sourceFetches.push(source);
    return this.accept(body, { ...(source.seconds !== null ? { duration: source.seconds } : {}), ratio: source.size?.replace('x', ':') });
  }

  /** A create the body's model and fields passed: the prompt's markers, then the task made to `shape`. */
  private async accept(body: Record<string, unknown>, shape: Pick<EmulatedTask, 'duration' | 'ratio'>): Promise<EmulatorReply> {
    const { model, promptText = '' } = body;
    const prompt = String(promptText);
    if (prompt.includes('[simulate:reject]')) return invalid('custom', ['promptText']);
    if (prompt.includes('[simulate:credits]')) return { status: 400, json: { error: 'You do not have enough credits to run this task.' } };
    if (prompt.includes('[simulate:busy]'))
      return { status: 429, headers: { 'Retry-After': '5' }, json: { error: 'Too many requests. (simulated)' } };
    await this.forgetOld(TASK);
    const task: EmulatedTask = {
      model: model as string,
      token: randomBytes(16).toString('hex'),
      failureCode: markedEnd(prompt, { moderation: 'SAFETY.INPUT.TEXT', fail: 'INTERNAL' }),
      cancelled: false,
      ...shape,
      ...(typeof body.audio === 'boolean' ? { audio: body.audio } : {}),
      ...this.takeScript(),
    };
    const { key } = await this.options.records.insertOrGet(TASK, randomUUID(), task);
    this.taskIds.push(key);
    return { status: 200, json: { id: key } };
  }

  /** The task as `GET /v1/tasks/{id}` answers it; a scripted task moves one step per query. */
  private async query(id: string, outputBase: string): Promise<RunwayTask | null> {
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record) return null;
    const task = record.data;
    const base = { id, createdAt: new Date(record.createdAt).toISOString() };
    if (task.cancelled) return { ...base, status: 'CANCELLED' };
    const step = task.moved ?? (await stepOfQuery(this.options.records, TASK, id, task, () => this.stepByClock(task, record.createdAt)));
    if (typeof step === 'object')
      return { ...base, status: 'FAILED', failure: 'Blocked at http://10.0.0.7/internal (simulated)', failureCode: step.failureCode };
    if (step === 'SUCCEEDED') return { ...base, status: step, output: [`${outputBase}/outputs/${id}.mp4?_jwt=${task.token}`] };
    if (step === 'RUNNING') return { ...base, status: step, progress: task.script ? 0.45 : this.progressByClock(record.createdAt) };
    return { ...base, status: step };
  }

  private stepByClock(task: EmulatedTask, createdAt: number): RunwayStep {
    const elapsed = this.options.now() - createdAt;
    if (elapsed < SIMULATED_PENDING_MS) return 'PENDING';
    if (elapsed < SIMULATED_DONE_MS) return 'RUNNING';
    return task.failureCode ? { status: 'FAILED', failureCode: task.failureCode } : 'SUCCEEDED';
  }

  private progressByClock(createdAt: number): number {
    const elapsed = this.options.now() - createdAt;
    return Math.round(((elapsed - SIMULATED_PENDING_MS) / (SIMULATED_DONE_MS - SIMULATED_PENDING_MS)) * 99) / 100;
  }

  /** Where the task is now, without counting a query: what a DELETE decides on. */
  private currentStep(task: EmulatedTask, createdAt: number): RunwayStep {
    if (task.moved) return task.moved;
    return stepNow(task, () => this.stepByClock(task, createdAt));
  }

  private async cancelOrDelete(id: string): Promise<EmulatorReply> {
    const held = this.deletes.held;
    if (held) await held;
    const { records } = this.options;
    const record = await records.find<EmulatedTask>(TASK, id);
    if (!record) return { status: 404, json: { error: 'Task not found' } };
    const step = this.currentStep(record.data, record.createdAt);
    if (!record.data.cancelled && RUNS.has(typeof step === 'object' ? step.status : step))
      await records.update(TASK, id, { ...record.data, cancelled: true });
    else await records.remove(TASK, id);
    return { status: 204 };
  }

  private async output(id: string, token: string | null): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record || record.data.cancelled || token !== record.data.token) return { status: 403, text: 'Forbidden' };
    const step = this.currentStep(record.data, record.createdAt);
    if (step !== 'SUCCEEDED') return { status: 403, text: 'Forbidden' };
    return this.videoReply(askedOf(record.data));
  }
}

/** The shape a task's request asked: its duration, its `ratio` (pixels) as the exact frame, and the Veo models' `audio`. */
function askedOf(task: EmulatedTask): AskedVideo {
  return { seconds: task.duration, size: task.ratio?.replace(':', 'x'), audio: task.audio };
}

function invalid(code: string, path: string[]): EmulatorReply {
  return {
    status: 400,
    json: {
      error: 'Validation of body failed',
      issues: [{ code, path, message: 'Invalid input (simulated)' }],
      docUrl: 'https://docs.dev.runwayml.com/api',
    },
  };
}
