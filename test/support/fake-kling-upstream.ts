/**
 * A scriptable Kling video API on a real loopback HTTP server (docs/upstream-protocols.md, Family
 * Kling), checking auth as Kling does: `Authorization: Bearer <JWT>`, HS256 signed with the secret
 * key of the access key in `iss`, `nbf` not in the future (401/1003), `exp` not passed (401/1004),
 * anything else 401/1002 (1001 without a token).
 *
 *   const fake = await startFakeKlingUpstream();   // channel api_key: fake.apiKey ('<access>:<secret>')
 *
 * `POST /v1/videos/{text2video|image2video}` creates a task; `GET /v1/videos/<same endpoint>/<id>`
 * answers its script one step per query, repeating the last (a task is not found on the other
 * endpoint's path); `GET /cdn/<id>.mp4` serves `fake.videoBytes` (no key, like Kling's CDN).
 * - `fake.scriptNext([...])`: a step is `submitted | processing | succeed` or `{ failed: msg }`.
 * - `fake.failNextSubmit({ status, code, headers? })`: the next submit answers Kling's error body.
 */
import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { LoopbackServer, RecordedRequest, sendJson, startLoopbackServer } from './http-server';

export type KlingStep = 'submitted' | 'processing' | 'succeed' | { failed: string };

export interface FakeKlingUpstream {
  url: string;
  accessKey: string;
  secretKey: string;
  apiKey: string;
  requests: RecordedRequest[];
  videoBytes: Buffer;
  /** Every accepted create, with its endpoint and JSON body. */
  creates: Array<{ endpoint: string; body: Record<string, unknown>; request: RecordedRequest }>;
  /** The claims of every token that passed, in order. */
  tokens: Array<{ iss: string; exp: number; nbf: number }>;
  scriptNext(steps: KlingStep[]): void;
  failNextSubmit(error: { status: number; code: number; headers?: Record<string, string> }): void;
  cdnRequests(): RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeKlingUpstream(options: { accessKey?: string; secretKey?: string } = {}): Promise<FakeKlingUpstream> {
  const accessKey = options.accessKey ?? 'AKFAKEKLING0001';
  const secretKey = options.secretKey ?? 'fake-kling-secret-0001';
  const tasks = new Map<string, { endpoint: string; script: KlingStep[]; queries: number }>();
  const failures: Array<{ status: number; code: number; headers?: Record<string, string> }> = [];
  let nextScript: KlingStep[] | null = null;
  let counter = 0;
  const fake = { creates: [], tokens: [] } as unknown as FakeKlingUpstream;
  const server: LoopbackServer = await startLoopbackServer((req, res) => {
    const cdn = /^\/cdn\/(\d+)\.mp4$/.exec(req.path);
    if (cdn && req.method === 'GET')
      return tasks.has(cdn[1])
        ? void res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': fake.videoBytes.length }).end(fake.videoBytes)
        : fail(res, 404, 1203);
    const authCode = checkToken(req.headers.authorization, accessKey, secretKey, fake.tokens);
    if (authCode !== 0) return fail(res, 401, authCode);
    const create = /^\/v1\/videos\/(text2video|image2video)$/.exec(req.path);
    const query = /^\/v1\/videos\/(text2video|image2video)\/([^/]+)$/.exec(req.path);
    if (create && req.method === 'POST') {
      const failure = failures.shift();
      if (failure) return fail(res, failure.status, failure.code, failure.headers);
      const id = String(860000000000000000n + BigInt(++counter));
      tasks.set(id, { endpoint: create[1], script: nextScript ?? ['submitted', 'processing', 'succeed'], queries: 0 });
      nextScript = null;
      fake.creates.push({ endpoint: create[1], body: req.json as Record<string, unknown>, request: req });
      return sendJson(res, 200, {
        code: 0,
        message: 'SUCCEED',
        request_id: `req-${counter}`,
        data: { task_id: id, task_status: 'submitted', created_at: Date.now(), updated_at: Date.now() },
      });
    }
    if (query && req.method === 'GET') {
      const task = tasks.get(query[2]);
      if (!task || task.endpoint !== query[1]) return fail(res, 404, 1203);
      const step = task.script[Math.min(task.queries++, task.script.length - 1)];
      const data: Record<string, unknown> = {
        task_id: query[2],
        task_status: typeof step === 'string' ? step : 'failed',
        task_status_msg: typeof step === 'string' ? '' : step.failed,
        created_at: 1_774_711_071_284,
        updated_at: 1_774_711_091_284,
      };
      if (step === 'succeed')
        data.task_result = { videos: [{ id: `v-${query[2]}`, url: `${server.url}/cdn/${query[2]}.mp4`, duration: '5.1' }] };
      return sendJson(res, 200, { code: 0, message: 'SUCCEED', request_id: 'req-q', data });
    }
    fail(res, 404, 1202);
  });
  Object.assign(fake, {
    url: server.url,
    accessKey,
    secretKey,
    apiKey: `${accessKey}:${secretKey}`,
    requests: server.requests,
    videoBytes: Buffer.concat([
      Buffer.from('\x00\x00\x00\x20ftypisom\x00\x00\x02\x00', 'latin1'),
      Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7) % 251)),
    ]),
    scriptNext: (steps: KlingStep[]) => void (nextScript = steps),
    failNextSubmit: (error: { status: number; code: number; headers?: Record<string, string> }) => void failures.push(error),
    cdnRequests: () => server.requests.filter((r) => r.path.startsWith('/cdn/')),
    close: () => server.close(),
  });
  return fake;
}

/** Kling's token check, written independently of the gateway's signer. */
function checkToken(
  header: string | string[] | undefined,
  accessKey: string,
  secretKey: string,
  seen: Array<{ iss: string; exp: number; nbf: number }>,
): number {
  const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : '';
  if (!token) return 1001;
  const parts = token.split('.');
  if (parts.length !== 3) return 1002;
  const [head, body, signature] = parts;
  const expected = createHmac('sha256', secretKey).update(`${head}.${body}`).digest('base64url');
  if (signature !== expected) return 1002;
  let claims: { iss?: unknown; exp?: unknown; nbf?: unknown };
  try {
    if (JSON.parse(Buffer.from(head, 'base64url').toString()).alg !== 'HS256') return 1002;
    claims = JSON.parse(Buffer.from(body, 'base64url').toString());
  } catch {
    return 1002;
  }
  if (claims.iss !== accessKey) return 1002;
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.nbf !== 'number' || claims.nbf > now) return 1003;
  if (typeof claims.exp !== 'number' || claims.exp < now) return 1004;
  seen.push({ iss: claims.iss, exp: claims.exp, nbf: claims.nbf });
  return 0;
}

const MESSAGES: Record<number, string> = {
  1001: 'Authorization is empty',
  1002: 'Authorization is invalid',
  1003: 'Authorization is not yet valid',
  1004: 'Authorization has expired',
  1101: 'Account is in arrears at http://10.0.0.5/billing',
  1102: 'Resource pack depleted',
  1201: 'invalid param: duration at http://10.0.0.9/x',
  1202: 'not found',
  1203: 'task not found',
  1301: 'Content security policy violation',
  1303: 'parallel task over resource pack limit',
  5000: 'internal error',
};

function fail(res: ServerResponse, status: number, code: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ code, message: MESSAGES[code] ?? 'error', request_id: 'req-err' }));
}
