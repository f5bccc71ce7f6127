/**
 * A scriptable Runway API on a real loopback HTTP server (docs/upstream-protocols.md, Family Runway):
 *
 *   const fake = await startFakeRunwayUpstream();        // key 'key_runway-test'
 *   channel base_url: fake.url, api_key: fake.apiKey
 *
 * Every call must carry `Authorization: Bearer <key>` (else 401) and `X-Runway-Version: 2024-11-06`
 * (else 400), as Runway demands. `POST /v1/text_to_video` and `/v1/image_to_video` answer `{id}`;
 * `GET /v1/tasks/<id>` answers the task's script one step per query, repeating the last; a
 * SUCCEEDED task's `output[0]` is a signed link (`/outputs/<id>.mp4?_jwt=`, no auth) serving
 * `fake.videoBytes`; `DELETE /v1/tasks/<id>` answers 204, as Runway does: it cancels a task still
 * PENDING, THROTTLED or RUNNING (later queries say CANCELLED) and deletes one in any other state
 * (later queries are a 404).
 * - `fake.scriptNext([...])`: a step is a status or `{ status: 'FAILED', failureCode }`.
 * - `fake.finish(id, step?)`: the provider moves the task on by itself (SUCCEEDED unless told), whether
 *   or not anybody queries it; every later query says so.
 * - `fake.holdDeletes()`: DELETEs are recorded on arrival but carried out and answered only once the
 *   returned function is called (a cancel in flight, for a crash to interrupt).
 * - `fake.failNextSubmit({ status, body?, headers? })`: the next submit answers this error.
 * - `fake.submits()`: every submit (path, JSON body, headers).
 */
import type { ServerResponse } from 'node:http';
import { LoopbackServer, RecordedRequest, sendJson, startLoopbackServer } from './http-server';

export type RunwayStep = 'PENDING' | 'THROTTLED' | 'RUNNING' | 'SUCCEEDED' | { status: 'FAILED'; failureCode: string };

export interface FakeRunwayUpstream {
  url: string;
  apiKey: string;
  requests: RecordedRequest[];
  videoBytes: Buffer;
  submits(): RecordedRequest[];
  downloads(): RecordedRequest[];
  deletes(): RecordedRequest[];
  scriptNext(steps: RunwayStep[]): void;
  finish(id: string, step?: RunwayStep): void;
  holdDeletes(): () => void;
  /** The provider's ids of the tasks it was sent, in order. */
  taskIds(): string[];
  failNextSubmit(error: { status: number; body?: unknown; headers?: Record<string, string> }): void;
  close(): Promise<void>;
}

const VERSION = '2024-11-06';
/** The states in which Runway's DELETE cancels a task (in any other it deletes the task). */
const RUNS = new Set(['PENDING', 'THROTTLED', 'RUNNING']);

interface FakeTask {
  script: RunwayStep[];
  queries: number;
  token: string;
  cancelled: boolean;
  /** Set by `finish`: where the provider took the task by itself. */
  finished: RunwayStep | null;
}

/** Where the task is now: where it was moved, else the step its last query answered (the first before any). */
const currentStep = (task: FakeTask): RunwayStep =>
  task.finished ?? task.script[Math.min(Math.max(task.queries - 1, 0), task.script.length - 1)];
const stepStatus = (step: RunwayStep): string => (typeof step === 'object' ? step.status : step);

export async function startFakeRunwayUpstream(options: { apiKey?: string } = {}): Promise<FakeRunwayUpstream> {
  const apiKey = options.apiKey ?? 'key_runway-test';
  const tasks = new Map<string, FakeTask>();
  let deleteGate: Promise<void> | null = null;
  const submitFailures: Array<{ status: number; body?: unknown; headers?: Record<string, string> }> = [];
  let nextScript: RunwayStep[] | null = null;
  let counter = 0;
  const fake = {} as FakeRunwayUpstream;
  const server: LoopbackServer = await startLoopbackServer(async (req, res) => {
    const output = /^\/outputs\/([^/]+)\.mp4$/.exec(req.path);
    // The signed output link needs no key (Runway's CloudFront URLs), only its token.
    if (output && req.method === 'GET') {
      const task = tasks.get(output[1]);
      if (!task || req.query.get('_jwt') !== task.token) return void res.writeHead(403).end('Forbidden');
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': fake.videoBytes.length });
      return void res.end(fake.videoBytes);
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) return sendJson(res, 401, { error: 'Invalid API key' });
    if (req.headers['x-runway-version'] !== VERSION) return sendJson(res, 400, { error: 'API version header missing or invalid' });
    if (req.method === 'POST' && (req.path === '/v1/text_to_video' || req.path === '/v1/image_to_video')) return submit(res);
    const one = /^\/v1\/tasks\/([^/]+)$/.exec(req.path);
    const task = one ? tasks.get(one[1]) : undefined;
    if (!one || !task) return sendJson(res, 404, { error: 'Not found' });
    if (req.method === 'DELETE') {
      if (deleteGate) await deleteGate;
      if (task.cancelled || !RUNS.has(stepStatus(currentStep(task)))) tasks.delete(one[1]);
      else task.cancelled = true;
      return void res.writeHead(204).end();
    }
    if (req.method !== 'GET') return sendJson(res, 405, { error: 'Method not allowed' });
    const base = { id: one[1], createdAt: '2025-11-11T21:48:50.448Z' };
    if (task.cancelled) return sendJson(res, 200, { ...base, status: 'CANCELLED' });
    const step = task.finished ?? task.script[Math.min(task.queries++, task.script.length - 1)];
    if (typeof step === 'object')
      return sendJson(res, 200, {
        ...base,
        status: 'FAILED',
        failure: 'Blocked at http://10.0.0.7/internal',
        failureCode: step.failureCode,
      });
    if (step === 'SUCCEEDED')
      return sendJson(res, 200, { ...base, status: step, output: [`${fake.url}/outputs/${one[1]}.mp4?_jwt=${task.token}`] });
    return sendJson(res, 200, { ...base, status: step, ...(step === 'RUNNING' ? { progress: 0.45 } : {}) });
  });

  function submit(res: ServerResponse): void {
    const failure = submitFailures.shift();
    if (failure) {
      res.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers });
      return void res.end(JSON.stringify(failure.body ?? { error: 'failure at http://10.0.0.1/internal' }));
    }
    const id = `0000${++counter}-f29d-4e58-99d3-1cb9efa14a5b`;
    tasks.set(id, {
      script: nextScript ?? ['PENDING', 'RUNNING', 'SUCCEEDED'],
      queries: 0,
      token: `jwt${counter}`,
      cancelled: false,
      finished: null,
    });
    nextScript = null;
    sendJson(res, 200, { id });
  }

  Object.assign(fake, {
    url: server.url,
    apiKey,
    requests: server.requests,
    videoBytes: Buffer.concat([
      Buffer.from('\x00\x00\x00\x20ftypisom\x00\x00\x02\x00', 'latin1'),
      Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7) % 251)),
    ]),
    submits: () => server.requests.filter((r) => r.method === 'POST'),
    downloads: () => server.requests.filter((r) => r.path.startsWith('/outputs/')),
    deletes: () => server.requests.filter((r) => r.method === 'DELETE'),
    scriptNext: (steps: RunwayStep[]) => void (nextScript = steps),
    finish: (id: string, step: RunwayStep = 'SUCCEEDED') => {
      const task = tasks.get(id);
      if (!task) throw new Error(`fake runway: unknown task ${id}`);
      task.finished = step;
    },
    holdDeletes: () => {
      let release!: () => void;
      deleteGate = new Promise((resolve) => (release = resolve));
      return () => {
        deleteGate = null;
        release();
      };
    },
    taskIds: () => [...tasks.keys()],
    failNextSubmit: (error: { status: number; body?: unknown; headers?: Record<string, string> }) => void submitFailures.push(error),
    close: () => server.close(),
  });
  return fake;
}
