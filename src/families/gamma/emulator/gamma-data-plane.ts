import { askedFlag, askedSeconds, askedText } from '../../simulator-shared/asked-video';
import {
  type AskedVideo,
  deliveredVideo,
  type EmulatorReply,
  type EmulatorRequest,
  type VideoSource,
} from '../../simulator-shared/emulator-http';
import { keepInLog } from '../../simulator-shared/emulator-log';
import { fileLinkMatch } from '../../simulator-shared/file-link';
import type { GammaProviderState } from './gamma-provider-state';
import type { GammaTestScripts } from './gamma-test-scripts';

const TASKS = '/api/v3/contents/generations/tasks';
/** The models, also by a dated version (`gamma-2-0-250101`), as the provider names its releases. */
const MODEL = /^gamma-2-0(-fast)?(-\d{6})?$/;
const RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'];
const ROLES = ['reference_image', 'first_frame', 'last_frame'];

type ContentItem = { type?: unknown; text?: unknown; image_url?: { url?: unknown }; role?: unknown };

export interface GammaDataPlaneOptions {
  apiKey: string;
  video: VideoSource;
}

/**
 * The data plane (docs/upstream-protocols.md, Family C): Bearer key on every task call, the provider's
 * checks of a submit (an `asset://` reference must be an active asset of the control plane), the
 * query answer, the DELETE (a queued task cancelled, a running one refused, any other deleted) and
 * the video of a succeeded task (no key, like a CDN link).
 */
export class GammaDataPlane {
  /** The ids of the tasks it accepted, oldest first (the last EMULATOR_LOG_LIMIT). */
  readonly taskIds: string[] = [];

  constructor(
    private readonly options: GammaDataPlaneOptions,
    private readonly state: GammaProviderState,
    private readonly scripts: GammaTestScripts,
  ) {}

  /** Answers one request; `base` is where the data plane is mounted, for the video links. */
  async handle(req: EmulatorRequest, base: string): Promise<EmulatorReply> {
    const video = fileLinkMatch(req, /^\/videos\/([^/]+)\.mp4$/);
    if (video) return this.video(video[1]);
    if (req.headers.authorization !== `Bearer ${this.options.apiKey}`)
      return fail(401, 'AuthenticationError', 'the API key or AK/SK in the request is missing or invalid');
    if (req.method === 'POST' && req.path === TASKS) return this.submit(req);
    const one = /^\/api\/v3\/contents\/generations\/tasks\/([^/]+)$/.exec(req.path);
    const id = one ? decoded(one[1]) : null;
    if (id !== null && req.method === 'GET') return this.query(id, base);
    if (id !== null && req.method === 'DELETE') return this.cancel(id);
    return fail(404, 'NotFound', `no ${req.method} ${req.path}`);
  }

  private async submit(req: EmulatorRequest): Promise<EmulatorReply> {
    await this.scripts.submitsReleased();
    const scripted = this.scripts.take('submit');
    if (scripted) return fail(scripted.status, scripted.code, scripted.message);
    const body = (typeof req.json === 'object' && req.json !== null ? req.json : {}) as Record<string, unknown>;
    const problem = await this.submitProblem(body);
    if (problem) return fail(400, problem.code, problem.message);
    const prompt = (body.content as ContentItem[]).find((item) => item.type === 'text')?.text;
    const id = await this.state.createTask(body, String(prompt ?? ''));
    keepInLog(this.taskIds, id);
    return { status: 200, json: { id } };
  }

  private async query(id: string, base: string): Promise<EmulatorReply> {
    const scripted = this.scripts.take('query');
    if (scripted) return fail(scripted.status, scripted.code, scripted.message);
    const view = await this.state.taskView(id, base);
    return view ? { status: 200, json: view } : fail(404, 'ResourceNotFound', `the task ${id} does not exist`);
  }

  private async cancel(id: string): Promise<EmulatorReply> {
    const scripted = this.scripts.take('cancel');
    if (scripted) return fail(scripted.status, scripted.code, scripted.message);
    const outcome = await this.state.cancelTask(id);
    if (!outcome) return fail(404, 'ResourceNotFound', `the task ${id} does not exist`);
    if (outcome === 'running') return fail(400, 'InvalidParameter', `the task ${id} is running and cannot be cancelled`);
    return { status: 200, json: {} };
  }

  private async video(segment: string): Promise<EmulatorReply> {
    const id = decoded(segment) ?? '';
    if ((await this.state.taskStatus(id)) !== 'succeeded') return fail(404, 'ResourceNotFound', 'no such video');
    return { status: 200, video: await deliveredVideo(this.options.video, askedOf((await this.state.taskBody(id)) ?? {})) };
  }

  /** The provider's checks of a submit body. */
  private async submitProblem(body: Record<string, unknown>): Promise<{ code: string; message: string } | null> {
    const invalid = (message: string) => ({ code: 'InvalidParameter', message });
    const model = String(body.model);
    if (!MODEL.test(model)) return { code: 'InvalidEndpointOrModel.NotFound', message: `the model ${model} does not exist` };
    if (!Array.isArray(body.content) || body.content.length === 0) return invalid('content is required');
    const content = body.content as ContentItem[];
    const text = content.filter((item) => item?.type === 'text');
    if (text.length !== 1 || typeof text[0].text !== 'string' || !text[0].text.trim())
      return invalid('content needs exactly one text item');
    const images = content.filter((item) => item?.type === 'image_url');
    if (images.length > 9) return invalid('at most 9 reference images');
    for (const image of images) {
      const url = image.image_url?.url;
      if (typeof url !== 'string' || !url) return invalid('image_url.url is required');
      if (!ROLES.includes(String(image.role))) return invalid('image_url.role is invalid');
      if (url.startsWith('asset://') && !(await this.state.isActiveAsset(url.slice('asset://'.length))))
        return invalid(`the asset ${url} does not exist or is not active`);
    }
    const duration = body.duration ?? 5;
    if (typeof duration !== 'number' || !Number.isInteger(duration) || duration < 4 || duration > 15)
      return invalid('duration must be 4 to 15');
    const resolution = body.resolution ?? '720p';
    if (!['480p', '720p', '1080p'].includes(String(resolution))) return invalid('resolution must be 480p, 720p or 1080p');
    if (resolution === '1080p' && MODEL.exec(model)?.[1]) return invalid(`${model} does not support 1080p`);
    if (body.ratio !== undefined && !RATIOS.includes(String(body.ratio))) return invalid('ratio is invalid');
    return null;
  }
}

/** The shape a submit body asked: its duration, resolution, ratio and generate_audio (what it left unsaid, undefined). */
function askedOf(body: Record<string, unknown>): AskedVideo {
  return {
    seconds: askedSeconds(body.duration),
    resolution: askedText(body.resolution),
    aspectRatio: askedText(body.ratio),
    audio: askedFlag(body.generate_audio),
  };
}

/** A path segment decoded, or null when it is not valid percent-encoding. */
function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function fail(status: number, code: string, message: string): EmulatorReply {
  return { status, json: { error: { code, message } } };
}
