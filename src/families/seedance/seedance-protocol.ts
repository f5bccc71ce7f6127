import type { UrlOrInlineImage } from '../shared/url-or-inline-images.service';

/** Wire shapes of Ark's video generation API (upstream-protocols-wires.md, section 1): the same on BytePlus and Volcengine. */
export const SEEDANCE_TASKS_PATH = '/api/v3/contents/generations/tasks';
export const seedanceTaskPath = (id: string): string => `${SEEDANCE_TASKS_PATH}/${encodeURIComponent(id)}`;

/**
 * A path on the channel's base URL: the host (`https://ark.ap-southeast.bytepluses.com`), or the host
 * with `/api/v3` as Ark's docs write it (new-api takes both), never `/api/v3` twice.
 */
export function arkPath(baseUrl: string, path: string): string {
  return /\/api\/v3\/?$/.test(baseUrl) && path.startsWith('/api/v3/') ? path.slice('/api/v3'.length) : path;
}

/**
 * The model id as the channel's region spells it: Volcengine's ids carry `doubao-`, BytePlus's do not
 * (`dreamina-seedance-2-0-260128`, `seedance-1-5-pro-251215`). Only the two public hosts are read; an
 * endpoint id (`ep-...`) or any other host's id goes as it is.
 */
export function arkModelId(upstreamModel: string, baseUrl: string): string {
  const host = URL.canParse(baseUrl) ? new URL(baseUrl).hostname.toLowerCase() : '';
  if (host.endsWith('.volces.com') && /^(dreamina-)?seedance-/.test(upstreamModel))
    return `doubao-${upstreamModel.replace(/^dreamina-/, '')}`;
  if (host.endsWith('.bytepluses.com') && upstreamModel.startsWith('doubao-seedance-'))
    return upstreamModel.replace(/^doubao-/, /^doubao-seedance-2-/.test(upstreamModel) ? 'dreamina-' : '');
  return upstreamModel;
}

/** How an image enters the task: a first frame, a last frame, or one of the references. */
export type SeedanceImageRole = 'first_frame' | 'last_frame' | 'reference_image';

/** What a task keeps to build its upstream call (`task.request`). */
export type SeedanceTaskRequest = {
  prompt?: string;
  duration: number;
  resolution: string;
  /** `adaptive` with frames (the video follows the image). */
  ratio: string;
  generateAudio: boolean;
  seed?: number;
  /** A source video (an edit or extension): the gateway's signed link, sent as the one `reference_video`. */
  video?: { url: string };
  /** The images in order, each with its role. */
  images?: Array<{ role: SeedanceImageRole; image: UrlOrInlineImage }>;
  /** The client's `metadata`, sent as it is (no key the gateway sets). */
  extra: Record<string, unknown>;
};

/** One item of `content`. */
export type SeedanceContentItem =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string }; role: SeedanceImageRole }
  | { type: 'video_url'; video_url: { url: string }; role: 'reference_video' };

/** A task as the query (and a callback) shows it. */
export interface SeedanceTask {
  id?: unknown;
  model?: unknown;
  status?: unknown;
  error?: { code?: unknown; message?: unknown } | null;
  content?: { video_url?: unknown; last_frame_url?: unknown } | null;
  usage?: { completion_tokens?: unknown; total_tokens?: unknown } | null;
  seed?: unknown;
  resolution?: unknown;
  ratio?: unknown;
  duration?: unknown;
  framespersecond?: unknown;
  generate_audio?: unknown;
  created_at?: unknown;
  updated_at?: unknown;
}

/** `{"error": {"code", "message", "param", "type"}}` with a 4xx/5xx status. */
export interface SeedanceErrorBody {
  error?: { code?: unknown; message?: unknown; param?: unknown; type?: unknown } | null;
}

/**
 * The create body: the client's metadata first, then the fields the gateway sets; `images` already
 * as URLs or data URIs, in the request's order. Top-level fields, never `--flags` in the text.
 */
export function buildSeedanceBody(request: SeedanceTaskRequest, model: string, images: readonly string[]): Record<string, unknown> {
  const content: SeedanceContentItem[] = [];
  if (request.prompt !== undefined) content.push({ type: 'text', text: request.prompt });
  (request.images ?? []).forEach(({ role }, index) => content.push({ type: 'image_url', image_url: { url: images[index] }, role }));
  if (request.video) content.push({ type: 'video_url', video_url: { url: request.video.url }, role: 'reference_video' });
  return {
    ...request.extra,
    model,
    content,
    duration: request.duration,
    resolution: request.resolution,
    ratio: request.ratio,
    generate_audio: request.generateAudio,
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
  };
}

/** The create answer's id (`cgt-20250918165813-8tz7p`). */
export function seedanceTaskIdOf(answer: unknown): string | undefined {
  const id = (answer as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && /^[\w-]{1,128}$/.test(id) ? id : undefined;
}
