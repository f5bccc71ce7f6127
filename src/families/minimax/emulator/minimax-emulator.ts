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
import { refusedV2Create, v2Error, v2ErrorOfCode, v2ImageCount, v2PromptOf } from './minimax-v2-emulation';

/**
 * A task's status in a script: one per query (the last repeats); `{ fail }` ends it `Fail` with that
 * `base_resp` code (v2: `failed` with it as `error.code`); `Cancelled` and `Expired` are v2's ends (v1 shows them as Fail 1000).
 */
export type MinimaxStep = 'Queueing' | 'Processing' | 'Success' | 'Cancelled' | 'Expired' | { fail: number };
const V2_STATUS = { Queueing: 'queued', Processing: 'running', Success: 'succeeded', Cancelled: 'cancelled', Expired: 'expired' } as const;

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
  /** A task of the v2 API (queried only there, and v1's only on v1). */
  api?: 'v2';
  model?: string;
  duration?: number;
  ratio?: string;
  /** v2's usage: the images it was sent. */
  images?: number;
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
    if (req.path.startsWith('/v2/')) return this.handleV2(req, base);
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
    const key = await this.newTask({ resolution: String(resolution), asked: askedOf(body) }, prompt);
    if (callbackUrl !== null) this.callbacks.schedule(callbackUrl, SIMULATED_DONE_MS, async () => this.callbackBody(key));
    return { status: 200, json: { task_id: key, ...baseResp(0, 'success') } };
  }

  /** Stores a task (and its output's file) whose prompt markers decide how it ends; its id. */
  private async newTask(fields: Pick<EmulatedTask, 'resolution' | 'asked'> & Partial<EmulatedTask>, prompt: string): Promise<string> {
    await this.forgetOld(TASK, FILE);
    const task: EmulatedTask = {
      ...fields,
      failure: markedEnd(prompt, { moderation: 1027, fail: 1000 }),
      fileId: numericId(),
      signingKey: randomBytes(16).toString('hex'),
      ...this.takeScript(),
    };
    const { records } = this.options;
    const { key } = await records.insertOrGet(TASK, numericId(), task);
    await records.insertOrGet(FILE, task.fileId, { taskId: key });
    return key;
  }

  /**
   * The v2 API: Bearer checked (a 401 envelope), `POST /v2/video_generation` checked as MiniMax does
   * (a 400 envelope), `GET /v2/query/video_generation/{id}` (`{task}` with the URL inline, time-limited,
   * and its usage), and the list (`?page_num&page_size`, newest first).
   */
  private async handleV2(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    if (req.headers.authorization !== `Bearer ${this.options.apiKey}`) return v2Error(401, 'authentication_error', 'invalid api key');
    if (req.method === 'POST' && req.path === '/v2/video_generation') return this.createV2(req, base);
    const query = /^\/v2\/query\/video_generation\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && query) return this.queryV2(query[1], base);
    if (req.method === 'GET' && req.path === '/v2/query/video_generation') return this.listV2(req.query, base);
    return v2Error(404, 'not_found_error', 'no such route');
  }

  private async createV2(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    const failure = this.takeSubmitFailure();
    if (failure !== undefined) return v2ErrorOfCode(failure);
    const body = jsonFieldsOf(req);
    const refusal = refusedV2Create(body);
    if (refusal) return v2Error(400, 'invalid_request_error', refusal);
    const prompt = v2PromptOf(body);
    if (prompt.includes('[simulate:reject]')) return v2ErrorOfCode(1026);
    if (prompt.includes('[simulate:busy]')) return v2ErrorOfCode(1002);
    if (prompt.includes('[simulate:broke]')) return v2ErrorOfCode(1008);
    const callbackUrl = typeof body.callback_url === 'string' ? body.callback_url : null;
    // The challenge check of v1, assumed for v2 (UNCONFIRMED: docs/families.md, MiniMax).
    if (callbackUrl !== null && !(await this.challengeAnswered(callbackUrl)))
      return v2Error(400, 'invalid_request_error', 'fail to check callback url');
    const { model, duration, resolution, ratio } = body as { model: string; duration: number; resolution: string; ratio?: string };
    const asked: AskedVideo = {
      seconds: duration,
      resolution,
      ...(typeof ratio === 'string' && ratio !== 'adaptive' ? { aspectRatio: ratio } : {}),
      audio: true,
    };
    const key = await this.newTask(
      { api: 'v2', model, duration, resolution, images: v2ImageCount(body), asked, ...(ratio ? { ratio: String(ratio) } : {}) },
      prompt,
    );
    if (callbackUrl !== null) this.callbacks.schedule(callbackUrl, SIMULATED_DONE_MS, async () => this.v2CallbackBody(key, base));
    return { status: 200, json: { task_id: key } };
  }

  /** A v2 task as its query answers it (a v1 task or an unknown id: `invalid task_id`); a scripted task moves one step per query. */
  private async queryV2(id: string, base: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record || record.data.api !== 'v2') return v2Error(400, 'invalid_request_error', 'invalid task_id');
    const step = await stepOfQuery(this.options.records, TASK, id, record.data, () => this.stepByClock(record.data, record.createdAt));
    return { status: 200, json: { task: this.v2View(id, record.data, record.createdAt, step, base) } };
  }

  /** The list, newest first, `page_size` (at most 50) per page; statuses as now, no query counted. */
  private async listV2(query: URLSearchParams, base: string): Promise<EmulatorReply> {
    const size = Math.min(Math.max(Number(query.get('page_size')) || 10, 1), 50);
    const page = Math.max(Number(query.get('page_num')) || 1, 1);
    const records = (await this.options.records.list<EmulatedTask>(TASK, { limit: 1000 })).filter((record) => record.data.api === 'v2');
    const tasks = records.slice((page - 1) * size, page * size).map((record) =>
      this.v2View(
        record.key,
        record.data,
        record.createdAt,
        stepNow(record.data, () => this.stepByClock(record.data, record.createdAt)),
        base,
      ),
    );
    return { status: 200, json: { tasks, total: records.length, page_num: page, page_size: size } };
  }

  /** What MiniMax's callback carries for a v2 task: its query's answer, as it is now. */
  private async v2CallbackBody(id: string, base: string): Promise<unknown> {
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record) return null;
    const step = stepNow(record.data, () => this.stepByClock(record.data, record.createdAt));
    return { task: this.v2View(id, record.data, record.createdAt, step, base) };
  }

  /** v2's `task`: lower-case status, the URL inline once it succeeded, the usage in whole seconds, the error's code as a string. */
  private v2View(id: string, task: EmulatedTask, createdAt: number, step: MinimaxStep, base: string): Record<string, unknown> {
    const seconds = (ms: number) => Math.floor(ms / 1000);
    const view: Record<string, unknown> = {
      id,
      model: task.model,
      status: typeof step === 'object' ? 'failed' : V2_STATUS[step],
      created_at: seconds(createdAt),
      updated_at: seconds(this.options.now()),
      resolution: task.resolution,
      duration: task.duration,
      ratio: task.ratio ?? 'adaptive',
      error: typeof step === 'object' ? { code: String(step.fail), message: 'failed, see http://10.0.0.7/x (simulated)' } : null,
    };
    if (step === 'Success') {
      const duration = task.duration ?? 5;
      view.content = { url: this.signedLink(task, base), prompt: '' };
      view.usage = {
        total_seconds: duration,
        input_seconds: 0,
        output_seconds: duration,
        input_image_count: task.images ?? 0,
        input_audio_seconds: 0,
      };
    }
    return view;
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
    const step = v1Step(stepNow(record.data, () => this.stepByClock(record.data, record.createdAt)));
    if (typeof step === 'object') return { task_id: id, status: 'Fail', file_id: '', ...baseResp(step.fail, 'failed') };
    return { task_id: id, status: step, file_id: step === 'Success' ? record.data.fileId : '', base_resp: OK };
  }

  /** The task as the query answers it (an unknown one: 2013 and no status); a scripted task moves one step per query. */
  private async query(id: string): Promise<EmulatorReply> {
    const record = await this.options.records.find<EmulatedTask>(TASK, id);
    if (!record || record.data.api === 'v2') return refused(2013, 'invalid params, task not found');
    const task = record.data;
    const step = v1Step(await stepOfQuery(this.options.records, TASK, id, task, () => this.stepByClock(task, record.createdAt)));
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
    const download_url = this.signedLink(task, base);
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

  /** The file's download URL: good for 9 h, signed like an OSS link, no key needed. */
  private signedLink(task: EmulatedTask, base: string): string {
    const expires = String(Math.floor(this.options.now() / 1000) + DOWNLOAD_URL_LIFETIME_S);
    const signature = sign(task.signingKey, task.fileId, expires);
    return `${base}/cdn/${task.fileId}/output.mp4?Expires=${expires}&OSSAccessKeyId=emulator&Signature=${signature}`;
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

/** v2's ends as v1 shows them: v1 has no cancelled or expired state, so Fail 1000. */
const v1Step = (step: MinimaxStep): MinimaxStep => (step === 'Cancelled' || step === 'Expired' ? { fail: 1000 } : step);

/** MiniMax's ids are 15-digit numbers (file ids are int64 in `files/retrieve`). */
const numericId = (): string => String(randomInt(1, 2 ** 47) + 10 ** 14);
const sign = (key: string, fileId: string, expires: string): string =>
  createHmac('sha256', key).update(`${fileId}:${expires}`).digest('hex');
