import { createHash, createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { LoopbackServer, RecordedRequest, sendJson, startLoopbackServer } from './http-server';

/**
 * A scriptable family C provider on loopback speaking both planes of the protocol document:
 * the data plane (`/api/v3/contents/generations/tasks`, Bearer) and the control plane
 * (`POST /control/?Action=..&Version=2024-01-01`, HMAC-SHA256 signed requests checked here
 * with an implementation of its own, not the gateway's).
 */

export interface ControlCall {
  action: string;
  version: string | null;
  body: Record<string, unknown>;
  /** Why the signature was refused, or null when it checked out. */
  signatureError: string | null;
  request: RecordedRequest;
}

export interface FakeTask {
  id: string;
  body: Record<string, unknown>;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'expired';
  error: { code: string; message: string } | null;
  videoUrl: string | null;
}

export interface FakeAsset {
  Id: string;
  GroupId: string;
  Status: 'Processing' | 'Active' | 'Failed';
  AssetType: string;
  URL: string;
  Name: string;
  CreateTime: string;
  Error: { Code: string; Message: string } | null;
}

interface ScriptedError {
  status: number;
  code: string;
  message: string;
}

export interface FakeGammaOptions {
  apiKey?: string;
  accessKey?: string;
  secretKey?: string;
  region?: string;
}

export interface FakeGammaUpstream {
  /** The channel's `base_url` (data plane). */
  url: string;
  /** The channel's `settings.control_base_url`. */
  controlUrl: string;
  apiKey: string;
  accessKey: string;
  secretKey: string;
  requests: RecordedRequest[];
  controlCalls: ControlCall[];
  submits: RecordedRequest[];
  /** The DELETEs of tasks (cancels), in order. */
  cancels: RecordedRequest[];
  tasks: Map<string, FakeTask>;
  assets: Map<string, FakeAsset>;
  /** BytedToken -> the session; `groupId` set once the liveness check "passed". */
  sessions: Map<string, { callbackUrl: string; groupId: string | null }>;
  /** The liveness check of `token` passed: GetVisualValidateResult returns a GroupId from now on. */
  passSession(token: string, groupId?: string): string;
  setAsset(id: string, status: FakeAsset['Status'], error?: { Code: string; Message: string }): void;
  setTask(id: string, change: Partial<Pick<FakeTask, 'status' | 'error' | 'videoUrl'>>): void;
  /** The next call of `action` (a control action, or `submit` / `query` / `cancel`) answers with this error. */
  failNext(action: string, status: number, code: string, message: string): void;
  /** Submits wait (unanswered) until the returned function is called: a provider slow to accept. */
  holdSubmits(): () => void;
  /** The provider's clock for the X-Date check (set it to the gateway's test clock). */
  now: () => number;
  /** Control actions answered with their result fields at the top level (no `Result` wrapper). */
  unwrapped: Set<string>;
  /** When set, the H5Link CreateVisualValidateSession hands out (e.g. a `file://` link); null: the fake's own. */
  h5LinkFor: ((token: string) => string) | null;
  channelBody(extra?: Record<string, unknown>): Record<string, unknown>;
  close(): Promise<void>;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

/** The provider's signature check, written from the protocol document. */
function checkSignature(req: RecordedRequest, accessKey: string, secretKey: string, region: string, now: number): string | null {
  const auth = String(req.headers.authorization ?? '');
  const m = /^HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/ark\/request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return 'malformed Authorization';
  const [, ak, shortDate, scopeRegion, signedHeaders, signature] = m;
  if (ak !== accessKey) return 'unknown access key';
  if (scopeRegion !== region) return `region ${scopeRegion} instead of ${region}`;
  if (signedHeaders !== 'content-type;host;x-content-sha256;x-date') return 'unexpected SignedHeaders';
  const xDate = String(req.headers['x-date'] ?? '');
  const d = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/.exec(xDate);
  if (!d || xDate.slice(0, 8) !== shortDate) return 'bad X-Date';
  const at = Date.UTC(+d[1], +d[2] - 1, +d[3], +d[4], +d[5], +d[6]);
  if (Math.abs(now - at) > 15 * 60_000) return 'X-Date more than 15 minutes off';
  const bodyHash = sha256(req.body);
  if (req.headers['x-content-sha256'] !== bodyHash) return 'X-Content-Sha256 mismatch';
  const query = [...req.query.entries()]
    .map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`)
    .sort()
    .join('&');
  const headers = ['content-type', 'host', 'x-content-sha256', 'x-date']
    .map((h) => `${h}:${String(req.headers[h] ?? '').trim()}\n`)
    .join('');
  const canonical = `${req.method}\n${req.path}\n${query}\n${headers}\n${signedHeaders}\n${bodyHash}`;
  const scope = `${shortDate}/${region}/ark/request`;
  const toSign = `HMAC-SHA256\n${xDate}\n${scope}\n${sha256(canonical)}`;
  const key = hmac(hmac(hmac(hmac(secretKey, shortDate), region), 'ark'), 'request');
  return createHmac('sha256', key).update(toSign).digest('hex') === signature ? null : 'signature mismatch';
}

export async function startFakeGammaUpstream(options: FakeGammaOptions = {}): Promise<FakeGammaUpstream> {
  const apiKey = options.apiKey ?? 'gamma-data-key';
  const accessKey = options.accessKey ?? 'AKFAKEGAMMA';
  const secretKey = options.secretKey ?? 'fake-gamma-secret';
  const region = options.region ?? 'cn-beijing';
  const controlCalls: ControlCall[] = [];
  const submits: RecordedRequest[] = [];
  const cancels: RecordedRequest[] = [];
  const tasks = new Map<string, FakeTask>();
  const assets = new Map<string, FakeAsset>();
  const sessions = new Map<string, { callbackUrl: string; groupId: string | null }>();
  const scripted = new Map<string, ScriptedError>();
  const unwrapped = new Set<string>();
  let counter = 0;
  let submitGate: Promise<void> | null = null;

  const takeScripted = (action: string) => {
    const error = scripted.get(action);
    if (error) scripted.delete(action);
    return error;
  };

  const control = (req: RecordedRequest, res: ServerResponse) => {
    const action = req.query.get('Action') ?? '';
    const meta = { RequestId: `req-${++counter}`, Action: action, Version: req.query.get('Version') ?? '' };
    const fail = (status: number, Code: string, Message: string) =>
      sendJson(res, status, { ResponseMetadata: { ...meta, Error: { Code, Message } } });
    const ok = (result: Record<string, unknown>) =>
      sendJson(res, 200, unwrapped.has(action) ? { ResponseMetadata: meta, ...result } : { ResponseMetadata: meta, Result: result });
    const body = (req.json ?? {}) as Record<string, unknown>;
    const signatureError = checkSignature(req, accessKey, secretKey, region, fake.now());
    controlCalls.push({ action, version: req.query.get('Version'), body, signatureError, request: req });
    if (req.method !== 'POST' || req.path !== '/control/') return fail(404, 'InvalidActionOrVersion', `no ${req.method} ${req.path}`);
    if (signatureError) return fail(401, 'SignatureDoesNotMatch', signatureError);
    if (req.query.get('Version') !== '2024-01-01') return fail(400, 'InvalidActionOrVersion', 'unsupported Version');
    const error = takeScripted(action);
    if (error) return fail(error.status, error.code, error.message);
    switch (action) {
      case 'CreateVisualValidateSession': {
        const token = `bt-${++counter}-${Math.random().toString(36).slice(2, 10)}`;
        sessions.set(token, { callbackUrl: String(body.CallbackURL), groupId: null });
        return ok({
          BytedToken: token,
          H5Link: fake.h5LinkFor?.(token) ?? `https://h5.fake-provider.test/validate?token=${token}`,
          CallbackURL: body.CallbackURL,
        });
      }
      case 'GetVisualValidateResult': {
        const session = sessions.get(String(body.BytedToken));
        if (!session) return fail(400, 'InvalidParameter.BytedToken', 'unknown or expired BytedToken');
        return ok(session.groupId ? { GroupId: session.groupId } : {});
      }
      case 'CreateAsset': {
        if (![...sessions.values()].some((s) => s.groupId === body.GroupId))
          return fail(400, 'InvalidParameter.GroupId', 'unknown GroupId');
        const id = `asset-20260101-${++counter}`;
        assets.set(id, {
          Id: id,
          GroupId: String(body.GroupId),
          Status: 'Processing',
          AssetType: String(body.AssetType),
          URL: String(body.URL),
          Name: String(body.Name),
          CreateTime: new Date().toISOString(),
          Error: null,
        });
        return ok({ Id: id });
      }
      case 'GetAsset': {
        const asset = assets.get(String(body.Id));
        return asset ? ok({ ...asset }) : fail(404, 'NotFound.Asset', 'asset not found');
      }
      case 'ListAssets': {
        const filter = (body.Filter ?? {}) as { GroupIds?: string[] };
        const all = [...assets.values()].filter((asset) => !filter.GroupIds || filter.GroupIds.includes(asset.GroupId));
        const size = Number(body.PageSize ?? 10);
        const page = Number(body.PageNumber ?? 1);
        return ok({ Items: all.slice((page - 1) * size, page * size), TotalCount: all.length });
      }
      case 'DeleteAsset': {
        if (!assets.delete(String(body.Id))) return fail(404, 'NotFound.Asset', 'asset not found');
        return ok({});
      }
      default:
        return fail(400, 'InvalidActionOrVersion', `unknown action ${action}`);
    }
  };

  const taskBody = (task: FakeTask) => ({
    id: task.id,
    model: task.body.model,
    status: task.status,
    error: task.error,
    created_at: 1767268800,
    updated_at: 1767268900,
    content: task.status === 'succeeded' ? { video_url: task.videoUrl } : null,
    seed: task.body.seed ?? 42,
    resolution: task.body.resolution,
    ratio: task.body.ratio ?? '16:9',
    duration: task.body.duration,
    framespersecond: 24,
    usage: { completion_tokens: 108900, total_tokens: 108900 },
  });

  const data = async (req: RecordedRequest, res: ServerResponse) => {
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return sendJson(res, 401, { error: { code: 'AuthenticationError', message: 'the API key is invalid' } });
    }
    if (req.method === 'POST' && req.path === '/api/v3/contents/generations/tasks') {
      submits.push(req);
      if (submitGate) await submitGate;
      const error = takeScripted('submit');
      if (error) return sendJson(res, error.status, { error: { code: error.code, message: error.message } });
      const id = `cgt-20260101120000-${++counter}`;
      tasks.set(id, { id, body: req.json as Record<string, unknown>, status: 'queued', error: null, videoUrl: null });
      return sendJson(res, 200, { id });
    }
    const match = /^\/api\/v3\/contents\/generations\/tasks\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && match) {
      const error = takeScripted('query');
      if (error) return sendJson(res, error.status, { error: { code: error.code, message: error.message } });
      const task = tasks.get(decodeURIComponent(match[1]));
      if (!task) return sendJson(res, 404, { error: { code: 'ResourceNotFound', message: 'task not found' } });
      return sendJson(res, 200, taskBody(task));
    }
    if (req.method === 'DELETE' && match) {
      // As documented: a queued task is cancelled, a finished one's record deleted, a running one refused.
      cancels.push(req);
      const error = takeScripted('cancel');
      if (error) return sendJson(res, error.status, { error: { code: error.code, message: error.message } });
      const id = decodeURIComponent(match[1]);
      const task = tasks.get(id);
      if (!task) return sendJson(res, 404, { error: { code: 'ResourceNotFound', message: 'task not found' } });
      if (task.status === 'running')
        return sendJson(res, 400, { error: { code: 'InvalidParameter', message: 'a running task cannot be cancelled' } });
      if (task.status === 'queued') task.status = 'cancelled';
      else tasks.delete(id);
      return sendJson(res, 200, {});
    }
    sendJson(res, 404, { error: { code: 'NotFound', message: `no ${req.method} ${req.path}` } });
  };

  const server: LoopbackServer = await startLoopbackServer((req, res) =>
    req.path.startsWith('/control') ? control(req, res) : data(req, res),
  );
  const fake: FakeGammaUpstream = {
    url: server.url,
    controlUrl: `${server.url}/control`,
    apiKey,
    accessKey,
    secretKey,
    requests: server.requests,
    controlCalls,
    submits,
    cancels,
    tasks,
    assets,
    sessions,
    unwrapped,
    h5LinkFor: null,
    passSession(token, groupId = `group-${++counter}`) {
      const session = sessions.get(token);
      if (!session) throw new Error(`fake gamma: unknown token ${token}`);
      session.groupId = groupId;
      return groupId;
    },
    setAsset(id, status, error) {
      const asset = assets.get(id);
      if (!asset) throw new Error(`fake gamma: unknown asset ${id}`);
      Object.assign(asset, { Status: status, Error: error ?? null });
    },
    setTask(id, change) {
      const task = tasks.get(id);
      if (!task) throw new Error(`fake gamma: unknown task ${id}`);
      Object.assign(task, change);
    },
    holdSubmits() {
      let release!: () => void;
      submitGate = new Promise((resolve) => (release = resolve));
      return () => {
        submitGate = null;
        release();
      };
    },
    failNext(action, status, code, message) {
      scripted.set(action, { status, code, message });
    },
    channelBody(extra = {}) {
      return {
        name: 'fake-gamma',
        platform: 'gamma',
        base_url: server.url,
        api_key: apiKey,
        models: ['gamma-2-0', 'gamma-2-0-fast'],
        settings: { control_base_url: `${server.url}/control`, access_key: accessKey, secret_key: secretKey, poll_interval_ms: 1000 },
        ...extra,
      };
    },
    now: Date.now,
    close: () => server.close(),
  };
  return fake;
}

/** What the verification e2e suites need over and over: a customer whose verification an admin approved. */
export async function approvedCustomer(
  gw: import('./gateway').TestGateway,
  options: { quota?: number; models?: string[] } = {},
): Promise<{ userId: number; key: string }> {
  const customer = await gw.createCustomer({ quota: options.quota ?? 0, models: options.models });
  const filed = await gw.http
    .post('/v1/verification/applications')
    .set('Authorization', `Bearer ${customer.key}`)
    .send({ company: 'Acme', use_case: 'presenter videos', contact: 'ops@acme.test' })
    .expect(201);
  await gw.admin.post(`/api/admin/verification/applications/${filed.body.id}/approve`, {}).expect(200);
  return customer;
}

/** An approved customer who passed a liveness check (confirmed by the provider): owns `groupId`. */
export async function verifiedCustomer(
  gw: import('./gateway').TestGateway,
  fake: FakeGammaUpstream,
  options: { quota?: number; models?: string[] } = {},
): Promise<{ userId: number; key: string; groupId: string; sessionId: string }> {
  const customer = await approvedCustomer(gw, options);
  const auth = `Bearer ${customer.key}`;
  const session = await gw.http
    .post('/v1/verification/sessions')
    .set('Authorization', auth)
    .send({ callback_url: 'https://biz.example/cb' })
    .expect(201);
  const groupId = fake.passSession(session.body.provider_token);
  const confirmed = await gw.http.get(`/v1/verification/sessions/${session.body.session_id}`).set('Authorization', auth).expect(200);
  if (confirmed.body.group_id !== groupId) throw new Error(`session not confirmed: ${JSON.stringify(confirmed.body)}`);
  return { ...customer, groupId, sessionId: session.body.session_id };
}

/** Uploads an asset into the customer's group and lets the provider activate it. */
export async function activeAsset(
  gw: import('./gateway').TestGateway,
  fake: FakeGammaUpstream,
  key: string,
  groupId: string,
): Promise<string> {
  const auth = `Bearer ${key}`;
  const created = await gw.http
    .post(`/v1/verification/groups/${groupId}/assets`)
    .set('Authorization', auth)
    .send({ url: 'https://cdn.example/face.jpg' })
    .expect(201);
  fake.setAsset(created.body.asset_id, 'Active');
  const read = await gw.http.get(`/v1/verification/assets/${created.body.asset_id}`).set('Authorization', auth).expect(200);
  if (read.body.status !== 'active') throw new Error(`asset not active: ${JSON.stringify(read.body)}`);
  return created.body.asset_id;
}
