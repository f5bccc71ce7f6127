import { askedSeconds, askedText } from '../../simulator-shared/asked-video';
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { AskedVideo, EmulatorReply, EmulatorRequest } from '../../simulator-shared/emulator-http';
import { fileLinkMatch } from '../../simulator-shared/file-link';
import { markedEnd } from '../../simulator-shared/prompt-markers';
import { jsonFieldsOf } from '../../simulator-shared/request-fields';
import { ScriptedEmulator, type ScriptedEmulatorOptions } from '../../simulator-shared/scripted-emulator';
import { MINIMAX_1080P_DURATION, MINIMAX_DURATIONS, MINIMAX_MAX_PROMPT, MINIMAX_MODELS } from '../minimax-models';
import type { MinimaxQueryAnswer } from '../minimax-protocol';
import { stepOfQuery, stepNow } from '../../shared/emulator-steps';

/** A task's status in a script: one per query (the last repeats); `{ fail }` ends it `Fail` with that `base_resp` code. */
export type MinimaxStep = 'Queueing' | 'Processing' | 'Success' | { fail: number };

export const SIMULATED_QUEUED_MS = 2_000;
export const SIMULATED_DONE_MS = 6_000;
/** MiniMax's download URLs live 9 h from when they are handed out. */
const DOWNLOAD_URL_LIFETIME_S = 32_400;
const TASK = 'minimax.task';
const FILE = 'minimax.file';
/** What each model MiniMax serves takes: lengths, resolutions, and whether it takes a prompt without a first frame. */
interface ServedModel {
  durations: readonly number[];
  resolutions: readonly string[];
  textToVideo: boolean;
}
/** The builtin models, and T2V-01-Director (720P, 6 s, text-to-video), which an operator adds as a catalog entry. */
const SERVED: Readonly<Record<string, ServedModel>> = {
  ...Object.fromEntries(
    Object.entries(MINIMAX_MODELS).map(([model, rules]) => [
      model,
      { durations: MINIMAX_DURATIONS, resolutions: ['512P', '768P', '1080P'], textToVideo: rules.textToVideo },
    ]),
  ),
  'T2V-01-Director': { durations: [6], resolutions: ['720P'], textToVideo: true },
};
const SIZES: Record<string, [number, number]> = {
  '512P': [910, 512],
  '720P': [1280, 720],
  '768P': [1366, 768],
  '1080P': [1920, 1080],
};

interface EmulatedTask {
  resolution: string;
  /** What the create asked of its video; absent on older records (then the simulator's generous default). */
  asked?: AskedVideo;
  /** The `base_resp` code a task ends `Fail` with (prompt markers: 1027 output moderation, 1000), or null. */
  failure: number | null;
  /** Its output's file id (MiniMax's differs from the task id). */
  fileId: string;
  /** Signs the file's download URLs (kept with the task, so any instance checks them alike). */
  signingKey: string;
  /** A test's script: the status of each query in turn; absent, the status follows the clock. */
  script?: MinimaxStep[];
  queries?: number;
}

/** Absent a script, tasks follow the clock: Queueing 2 s, Processing until 6 s, then done. */
export interface MinimaxEmulatorOptions extends ScriptedEmulatorOptions<MinimaxStep> {
  apiKey: string;
}

const baseResp = (status_code: number, status_msg: string) => ({ base_resp: { status_code, status_msg } });
const OK = { status_code: 0, status_msg: 'success' };
const refused = (code: number, message: string): EmulatorReply => ({ status: 200, json: { task_id: '', ...baseResp(code, message) } });

/**
 * MiniMax's video API v1 (docs/upstream-protocols.md, Family MiniMax Hailuo), one emulator for the
 * embedded simulator and the tests: Bearer key on every API call, errors as HTTP 200 with `base_resp`
 * (a wrong key: 1004), `video_generation` checked against the models, queries by task id, and
 * `files/retrieve` handing out a pre-signed download URL (`Expires`, `Signature`; 9 h; no key) for the
 * file of a task that succeeded. Prompt markers: `[simulate:reject]` 1026, `[simulate:busy]` 1002,
 * `[simulate:broke]` 1008 on submit; `[simulate:fail]` Fail 1000, `[simulate:moderation]` Fail 1027.
 * Tests also script statuses and queue submit errors (the `base_resp` code the next submit answers).
 */
export class MinimaxEmulator extends ScriptedEmulator<MinimaxStep, number, MinimaxEmulatorOptions> {
  /** Answers one request; `base` is where this emulator is mounted (`http://host/simulator/minimax`), for the download URLs. */
  async handle(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    this.logRequest(req);
    const cdn = fileLinkMatch(req, /^\/cdn\/(\d{1,20})\/output\.mp4$/);
    if (cdn) return this.download(cdn[1], req.query);
    if (req.headers.authorization !== `Bearer ${this.options.apiKey}`)
      return refused(1004, 'login fail: Please carry the API secret key in the Authorization field of the request header');
    if (req.method === 'POST' && req.path === '/v1/video_generation') return this.create(req);
    if (req.method === 'GET' && req.path === '/v1/query/video_generation') return this.query(req.query.get('task_id') ?? '');
    if (req.method === 'GET' && req.path === '/v1/files/retrieve') return this.retrieve(req.query.get('file_id') ?? '', base);
    return { status: 404, json: { error: 'no such route' } };
  }

  private async create(req: EmulatorRequest): Promise<EmulatorReply> {
    const failure = this.takeSubmitFailure();
    if (failure !== undefined) return refused(failure, 'failure at http://10.0.0.1/internal, key sk-leaked123456');
    const body = jsonFieldsOf(req);
    const { model, prompt, duration = 6, resolution = '768P' } = body;
    if (typeof model !== 'string' || !Object.hasOwn(SERVED, model)) return refused(2013, 'invalid params, model');
    const served = SERVED[model];
    if (typeof prompt !== 'string' || prompt.length > MINIMAX_MAX_PROMPT) return refused(2013, 'invalid params, prompt');
    if (!(served.durations as readonly unknown[]).includes(duration)) return refused(2013, 'invalid params, duration');
    if (!served.resolutions.includes(String(resolution)) || (resolution === '1080P' && duration !== MINIMAX_1080P_DURATION))
      return refused(2013, 'invalid params, resolution');
    if (!served.textToVideo && typeof body.first_frame_image !== 'string') return refused(2013, 'invalid params, first_frame_image');
    if (prompt.includes('[simulate:reject]')) return refused(1026, 'input new_sensitive (simulated)');
    if (prompt.includes('[simulate:busy]')) return refused(1002, 'rate limit exceeded (simulated)');
    if (prompt.includes('[simulate:broke]')) return refused(1008, 'insufficient balance (simulated)');
    const callbackUrl = typeof body.callback_url === 'string' ? body.callback_url : null;
    // MiniMax checks a callback URL before it creates the task: its challenge must come back within 3 s.
    if (callbackUrl !== null && !(await this.challengeAnswered(callbackUrl)))
      return refused(2013, 'invalid params, fail to check callback url');
    await this.forgetOld(TASK, FILE);
    const task: EmulatedTask = {
      resolution: String(resolution),
      asked: askedOf(body),
      failure: markedEnd(prompt, { moderation: 1027, fail: 1000 }),
      fileId: numericId(),
      signingKey: randomBytes(16).toString('hex'),
      ...this.takeScript(),
    };
    const { records } = this.options;
    const { key } = await records.insertOrGet(TASK, numericId(), task);
    await records.insertOrGet(FILE, task.fileId, { taskId: key });
    if (callbackUrl !== null) this.callbacks.schedule(callbackUrl, SIMULATED_DONE_MS, async () => this.callbackBody(key));
    return { status: 200, json: { task_id: key, ...baseResp(0, 'success') } };
  }

  /** POSTs `{"challenge"}` to the URL; true when the same challenge came back. */
  private async challengeAnswered(url: string): Promise<boolean> {
    const challenge = randomBytes(12).toString('hex');
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ challenge }),
        signal: AbortSignal.timeout(3_000),
      });
      return ((await response.json()) as { challenge?: unknown })?.challenge === challenge;
    } catch {
      return false;
    }
  }

  /** The task's status now (no query counted), as MiniMax's callback carries it: the query's answer without the size. */
  private async callbackBody(id: string): Promise<unknown> {
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record) return null;
    const step = stepNow(record.data, () => this.stepByClock(record.data, record.createdAt));
    if (typeof step === 'object') return { task_id: id, status: 'Fail', file_id: '', ...baseResp(step.fail, 'failed') };
    return { task_id: id, status: step, file_id: step === 'Success' ? record.data.fileId : '', base_resp: OK };
  }

  /** The task as the query answers it (an unknown one: 2013 and no status); a scripted task moves one step per query. */
  private async query(id: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record) return refused(2013, 'invalid params, task not found');
    const task = record.data;
    const step = await stepOfQuery(this.options.records, TASK, id, task, () => this.stepByClock(task, record.createdAt));
    let answer: MinimaxQueryAnswer;
    if (typeof step === 'object')
      answer = { task_id: id, status: 'Fail', file_id: '', ...baseResp(step.fail, 'failed, see http://10.0.0.7/x (simulated)') };
    else if (step === 'Success') {
      const [width, height] = SIZES[task.resolution] ?? SIZES['768P'];
      answer = { task_id: id, status: step, file_id: task.fileId, video_width: width, video_height: height, base_resp: OK };
    } else answer = { task_id: id, status: step, file_id: '', base_resp: OK };
    return { status: 200, json: answer };
  }

  private stepByClock(task: EmulatedTask, createdAt: number): MinimaxStep {
    const elapsed = this.options.now() - createdAt;
    if (elapsed < SIMULATED_QUEUED_MS) return 'Queueing';
    if (elapsed < SIMULATED_DONE_MS) return 'Processing';
    return task.failure ? { fail: task.failure } : 'Success';
  }

  /** The task whose output this file is, once it succeeded (without counting a query); null before, or for another id. */
  private async finishedTaskOf(fileId: string): Promise<EmulatedTask | null> {
    const file = await this.options.records.find<{ taskId: string }>(FILE, fileId);
    const record = file ? await this.options.records.find<EmulatedTask>(TASK, file.data.taskId) : null;
    if (!record) return null;
    const step = stepNow(record.data, () => this.stepByClock(record.data, record.createdAt));
    return step === 'Success' ? record.data : null;
  }

  /** `files/retrieve`: a download URL good for 9 h, signed like an OSS link. */
  private async retrieve(fileId: string, base: string): Promise<EmulatorReply> {
    const task = await this.finishedTaskOf(fileId);
    if (!task) return { status: 200, json: baseResp(2013, 'invalid params, file not found') };
    const nowSeconds = Math.floor(this.options.now() / 1000);
    const expires = String(nowSeconds + DOWNLOAD_URL_LIFETIME_S);
    const signature = sign(task.signingKey, fileId, expires);
    const download_url = `${base}/cdn/${fileId}/output.mp4?Expires=${expires}&OSSAccessKeyId=emulator&Signature=${signature}`;
    const file = {
      file_id: Number(fileId),
      bytes: 0,
      created_at: nowSeconds,
      filename: 'output.mp4',
      purpose: 'video_generation',
      download_url,
    };
    return { status: 200, json: { file, ...baseResp(0, 'success') } };
  }

  /** The "CDN": a pre-signed link, no key (as MiniMax's); a wrong signature or a passed `Expires` is 403. */
  private async download(fileId: string, query: URLSearchParams): Promise<EmulatorReply> {
    const task = await this.finishedTaskOf(fileId);
    if (!task) return { status: 404, text: 'NoSuchKey' };
    const expires = query.get('Expires') ?? '';
    const expected = Buffer.from(sign(task.signingKey, fileId, expires));
    const given = Buffer.from(query.get('Signature') ?? '');
    if (expected.length !== given.length || !timingSafeEqual(expected, given) || Number(expires) * 1000 < this.options.now())
      return { status: 403, text: 'AccessDenied' };
    return this.videoReply(task.asked ?? {});
  }
}

/** What a create body asks of its video: `duration` and `resolution` (`768P`; no aspect ratio, no audio); unsaid stays undefined. */
function askedOf(body: Record<string, unknown>): AskedVideo {
  const { duration, resolution } = body;
  return { seconds: askedSeconds(duration), resolution: askedText(resolution) };
}

/** MiniMax's ids are 15-digit numbers (file ids are int64 in `files/retrieve`). */
const numericId = (): string => String(randomInt(1, 2 ** 47) + 10 ** 14);
const sign = (key: string, fileId: string, expires: string): string =>
  createHmac('sha256', key).update(`${fileId}:${expires}`).digest('hex');
