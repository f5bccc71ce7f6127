import { Injectable, Module } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { DefaultPrice } from '../../src/billing/default-prices';
import type { FamilyDefinition, FamilyDrafts, SubmitInput } from '../../src/families/family';
import { builtinEntries } from '../../src/families/shared/builtin-entry';
import type { ChannelEntity } from '../../src/upstream/channel.entity';
import {
  PollOutcome,
  ProviderUsage,
  SubmitOutcome,
  UpstreamAdapter,
  UpstreamError,
  UpstreamState,
} from '../../src/upstream/upstream-adapter';
import type { UpstreamTask } from '../../src/upstream/upstream-task';
import { LoopbackServer, RecordedRequest, startLoopbackServer } from './http-server';

/**
 * A test family with short-lived outputs, as the hosted platforms have (Replicate, xAI, Vidu): its
 * provider keeps a finished video at its link for EPHEMERAL_OUTPUT_LIFETIME_MS, then answers 404
 * (an HTML page), and it reports its own cost of each task (Vidu's `credits` at submit and on a
 * poll, xAI's `usage.cost_in_usd_ticks` on a poll). Registered with
 * `startGateway(kind, env, undefined, { extraFamilies: [EPHEMERAL_FAMILY] })`; its upstream is a real
 * HTTP server on loopback, on the gateway's clock (`upstream.now`).
 *
 * Wire protocol: `POST /v1/tasks {model, prompt}` -> `{id, credits?}`; `GET /v1/tasks/{id}` ->
 * `{id, state: queued|running|done|failed, video_url?, credits?, usage?: {cost_in_usd_ticks}}`;
 * `GET /files/{id}.mp4` -> the video until its lifetime is over, then 404.
 */
export const EPHEMERAL_PLATFORM = 'ephemeral';
export const EPHEMERAL_MODEL = 'ephemeral-1';
export const EPHEMERAL_OUTPUT_LIFETIME_MS = 5_000;
export const EPHEMERAL_API_KEY = 'ephemeral-key';

/** One answer of the task's query, in turn (the last one repeats). */
export interface EphemeralStep {
  state: 'queued' | 'running' | 'done' | 'failed';
  credits?: number;
  ticks?: number;
  /** A `done` whose video never was: its link answers 404 (`dead`) or redirects to a 404 (`redirect-dead`), from the start. */
  link?: 'dead' | 'redirect-dead';
  /** A `failed` for the provider's own reason (`error: "internal_error"`): the gateway runs the task again on another channel. */
  internal?: boolean;
}

interface EphemeralTask {
  steps: EphemeralStep[];
  polls: number;
  doneAt: number | null;
  link?: EphemeralStep['link'];
}

export interface EphemeralUpstream {
  url: string;
  apiKey: string;
  /** The provider's clock: set it to the gateway's test clock. */
  now: () => number;
  videoBytes: Buffer;
  /** The next task's query answers (default: done at once) and what its submit reports. */
  scriptNext(steps: EphemeralStep[], submitCredits?: number): void;
  /** Downloads of finished videos so far (served or refused). */
  fileCalls(): RecordedRequest[];
  channelBody(name?: string): Record<string, unknown>;
  close(): Promise<void>;
}

export async function startEphemeralUpstream(videoBytes: Buffer): Promise<EphemeralUpstream> {
  const tasks = new Map<string, EphemeralTask>();
  let next: { steps: EphemeralStep[]; submitCredits?: number } | null = null;
  let seq = 0;
  let server: LoopbackServer | undefined;
  const upstream: EphemeralUpstream = {
    url: '',
    apiKey: EPHEMERAL_API_KEY,
    now: () => Date.now(),
    videoBytes,
    scriptNext: (steps, submitCredits) => void (next = { steps, submitCredits }),
    fileCalls: () => server!.requests.filter((request) => request.path.startsWith('/files/')),
    channelBody: (name = `ephemeral-${Date.now()}`) => ({
      name,
      platform: EPHEMERAL_PLATFORM,
      base_url: upstream.url,
      api_key: EPHEMERAL_API_KEY,
      models: [EPHEMERAL_MODEL],
    }),
    close: () => server!.close(),
  };
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  server = await startLoopbackServer((req, res) => {
    const file = /^\/files\/(eph_\d+)\.mp4$/.exec(req.path);
    if (req.method === 'GET' && file) {
      const task = tasks.get(file[1]);
      if (task?.link === 'redirect-dead') {
        res.writeHead(302, { location: `${upstream.url}/outputs/${file[1]}.mp4` });
        res.end();
        return;
      }
      if (!task?.doneAt || task.link === 'dead' || upstream.now() >= task.doneAt + EPHEMERAL_OUTPUT_LIFETIME_MS) {
        // What an expired output link answers: a page, never a video.
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end('<html><body>This output has expired.</body></html>');
        return;
      }
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(upstream.videoBytes.length) });
      res.end(upstream.videoBytes);
      return;
    }
    if (req.method === 'GET' && req.path.startsWith('/outputs/')) {
      // Where a dead link redirects: nothing there.
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Not found.</body></html>');
      return;
    }
    if (req.headers.authorization !== `Bearer ${EPHEMERAL_API_KEY}`) return json(res, 401, { error: 'unauthorized' });
    if (req.method === 'POST' && req.path === '/v1/tasks') {
      const id = `eph_${++seq}`;
      const script = next ?? { steps: [{ state: 'done' }] };
      next = null;
      tasks.set(id, { steps: script.steps, polls: 0, doneAt: null });
      return json(res, 200, { id, ...(script.submitCredits !== undefined ? { credits: script.submitCredits } : {}) });
    }
    const query = /^\/v1\/tasks\/(eph_\d+)$/.exec(req.path);
    const task = query ? tasks.get(query[1]) : undefined;
    if (req.method === 'GET' && query && task) {
      const step = task.steps[Math.min(task.polls++, task.steps.length - 1)];
      if (step.state === 'done') {
        task.doneAt ??= upstream.now();
        task.link = step.link;
      }
      return json(res, 200, {
        id: query[1],
        state: step.state,
        ...(step.state === 'done' ? { video_url: `${upstream.url}/files/${query[1]}.mp4` } : {}),
        ...(step.credits !== undefined ? { credits: step.credits } : {}),
        ...(step.ticks !== undefined ? { usage: { cost_in_usd_ticks: step.ticks } } : {}),
        ...(step.internal ? { error: 'internal_error' } : {}),
      });
    }
    return json(res, 404, { error: 'not found' });
  });
  upstream.url = server.url;
  return upstream;
}

type EphemeralRequest = { prompt: string | null };
type EphemeralAnswer = {
  id?: string;
  state?: string;
  video_url?: string;
  credits?: number;
  usage?: { cost_in_usd_ticks?: number };
  error?: string;
};

/** The reason of a failure the provider owns (its internal error): the family's providerOwnFailure names it. */
const INTERNAL_FAILURE = 'generation failed: internal_error';

const STATES: Record<string, UpstreamState> = { queued: 'queued', running: 'running', done: 'succeeded', failed: 'failed' };

/** What the provider says of its cost: Vidu's credits, or xAI's ticks. */
function usageOf(answer: EphemeralAnswer): ProviderUsage | undefined {
  if (typeof answer.usage?.cost_in_usd_ticks === 'number') return { unit: 'usd_ticks', amount: answer.usage.cost_in_usd_ticks };
  if (typeof answer.credits === 'number') return { unit: 'credits', amount: answer.credits };
  return undefined;
}

@Injectable()
export class EphemeralAdapter implements UpstreamAdapter<EphemeralRequest> {
  readonly platform = EPHEMERAL_PLATFORM;
  readonly defaultPollIntervalMs = 1_000;
  readonly expectedDurationMs = 10_000;
  readonly idempotentSubmit = false;
  readonly outputExpiresAfterMs = EPHEMERAL_OUTPUT_LIFETIME_MS;

  defaultUpstreamModel(publicModel: string): string {
    return publicModel;
  }

  async submit(task: UpstreamTask<EphemeralRequest>, channel: ChannelEntity): Promise<SubmitOutcome<EphemeralRequest>> {
    const answer = await this.call(channel, 'POST', '/v1/tasks', { model: task.upstreamModel, prompt: task.request.prompt });
    if (typeof answer.id !== 'string') throw new UpstreamError('transient', 'ephemeral: no task id');
    return { upstreamTaskId: answer.id, providerUsage: usageOf(answer) };
  }

  async poll(task: UpstreamTask<EphemeralRequest>, channel: ChannelEntity): Promise<PollOutcome> {
    const answer = await this.call(channel, 'GET', `/v1/tasks/${task.upstreamTaskId}`);
    const state = STATES[answer.state ?? ''];
    if (!state) throw new UpstreamError('transient', 'ephemeral: unknown state');
    return {
      state,
      videoUrl: state === 'succeeded' ? answer.video_url : undefined,
      failReason: state === 'failed' ? (answer.error === 'internal_error' ? INTERNAL_FAILURE : 'generation failed') : undefined,
      // The raw answer as the provider gave it, cost fields included: the surfaces must not show them.
      raw: answer,
      providerUsage: usageOf(answer),
    };
  }

  private async call(channel: ChannelEntity, method: 'GET' | 'POST', path: string, body?: unknown): Promise<EphemeralAnswer> {
    let response: Response;
    try {
      response = await fetch(`${channel.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${channel.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(5_000),
      });
    } catch {
      throw new UpstreamError('transient', 'ephemeral: unreachable');
    }
    if (!response.ok) throw new UpstreamError(response.status === 401 ? 'channel' : 'transient', `ephemeral: HTTP ${response.status}`);
    return (await response.json()) as EphemeralAnswer;
  }
}

@Injectable()
export class EphemeralDrafts implements FamilyDrafts<EphemeralRequest> {
  async prepare(model: string, input: SubmitInput) {
    return {
      draft: {
        platform: EPHEMERAL_PLATFORM,
        model,
        action: 'textGenerate',
        request: { prompt: typeof input.body.prompt === 'string' ? input.body.prompt : null },
        quote: { model, resolution: '720p', seconds: 5 },
      },
    } as Awaited<ReturnType<FamilyDrafts<EphemeralRequest>['prepare']>>;
  }
}

@Module({ providers: [EphemeralAdapter, EphemeralDrafts], exports: [EphemeralAdapter, EphemeralDrafts] })
export class EphemeralFamilyModule {}

const PRICES: DefaultPrice[] = [
  { model: EPHEMERAL_MODEL, resolution: '720p', unit: 'second', duration: 0, credits: 10, audioCredits: null },
];

export const EPHEMERAL_FAMILY: FamilyDefinition = {
  platform: EPHEMERAL_PLATFORM,
  label: { en: 'ephemeral (test family)', 'zh-CN': 'ephemeral（测试系）' },
  settings: [],
  models: [EPHEMERAL_MODEL],
  publicModel: (name) => (name === EPHEMERAL_MODEL ? EPHEMERAL_MODEL : null),
  forms: ['flat', 'unified'],
  request: { schema: Object, examples: {} },
  defaultPrices: PRICES,
  builtinEntries: builtinEntries(
    EPHEMERAL_PLATFORM,
    [
      {
        id: EPHEMERAL_MODEL,
        modes: ['text-to-video'],
        durations: [5],
        defaultDuration: 5,
        resolutions: ['720p'],
        aspectRatios: [],
        audio: 'none',
      },
    ],
    PRICES,
  ),
  providerOwnFailure: (reason) => reason === INTERNAL_FAILURE,
  module: EphemeralFamilyModule,
  drafts: EphemeralDrafts,
  adapter: EphemeralAdapter,
};
