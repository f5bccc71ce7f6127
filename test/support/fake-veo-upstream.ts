/**
 * A scriptable Gemini API for Veo on a real loopback HTTP server (docs/upstream-protocols.md, Family Veo):
 *
 *   const fake = await startFakeVeoUpstream();          // key 'veo-test-key'
 *   channel base_url: fake.url, api_key: fake.apiKey
 *
 * Every call must carry `x-goog-api-key` (the file download too), else Google's 400 API_KEY_INVALID.
 * `POST /v1beta/models/<model>:predictLongRunning` answers `{name: models/<model>/operations/op<n>}`;
 * `GET /v1beta/<name>` answers the operation's script one step per query, repeating the last;
 * `GET /v1beta/files/op<n>:download?alt=media` answers a 302 to `/storage/op<n>` on another origin (no key
 * needed there, like a signed storage URL), which serves `fake.videoBytes`.
 * - steps: 'running' | 'done' | 'moderation' | { error: code } | { body }; `fake.scriptNext([...])`.
 * - `fake.failNextSubmit({ status, body?, headers? })`; `fake.submits()`; `fake.downloads()`.
 */
import type { ServerResponse } from 'node:http';
import { LoopbackServer, RecordedRequest, sendJson, startLoopbackServer } from './http-server';

export type VeoStep = 'running' | 'done' | 'moderation' | { error: number } | { body: unknown };

export interface FakeVeoUpstream {
  url: string;
  apiKey: string;
  requests: RecordedRequest[];
  defaultScript: VeoStep[];
  videoBytes: Buffer;
  submits(): RecordedRequest[];
  /** The key-protected file downloads (each answered with a redirect to storage). */
  downloads(): RecordedRequest[];
  /** What the signed storage origin was asked (after the redirect). */
  storageRequests(): RecordedRequest[];
  scriptNext(steps: VeoStep[]): void;
  failNextSubmit(error: { status: number; body?: unknown; headers?: Record<string, string> }): void;
  close(): Promise<void>;
}

const RESPONSE_TYPE = 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse';

export const googleError = (code: number, status: string, message: string, details?: unknown[]) => ({
  error: { code, message, status, ...(details ? { details } : {}) },
});
export const API_KEY_INVALID = googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
  { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
]);

export async function startFakeVeoUpstream(options: { apiKey?: string } = {}): Promise<FakeVeoUpstream> {
  const apiKey = options.apiKey ?? 'veo-test-key';
  const operations = new Map<string, { script: VeoStep[]; queries: number }>();
  const submitFailures: Array<{ status: number; body?: unknown; headers?: Record<string, string> }> = [];
  let nextScript: VeoStep[] | null = null;
  let counter = 0;
  const fake = {} as FakeVeoUpstream;
  const storage: LoopbackServer = await startLoopbackServer((req, res) => serveBytes(req, res, fake.videoBytes));
  const server: LoopbackServer = await startLoopbackServer((req, res) => {
    if (req.headers['x-goog-api-key'] !== apiKey) return sendJson(res, 400, API_KEY_INVALID);
    const submit = /^\/v1beta\/models\/([\w.-]+):predictLongRunning$/.exec(req.path);
    const operation = /^\/v1beta\/(models\/[\w.-]+\/operations\/(op\d+))$/.exec(req.path);
    const file = /^\/v1beta\/files\/(op\d+):download$/.exec(req.path);
    if (submit && req.method === 'POST') {
      const failure = submitFailures.shift();
      if (failure) {
        res.writeHead(failure.status, { 'content-type': 'application/json', ...failure.headers });
        return void res.end(JSON.stringify(failure.body ?? googleError(failure.status, 'INTERNAL', 'Internal error at 10.0.0.1')));
      }
      const id = `op${++counter}`;
      operations.set(id, { script: nextScript ?? fake.defaultScript, queries: 0 });
      nextScript = null;
      return sendJson(res, 200, { name: `models/${submit[1]}/operations/${id}` });
    }
    if (operation && req.method === 'GET') {
      const op = operations.get(operation[2]);
      if (!op) return sendJson(res, 404, googleError(404, 'NOT_FOUND', 'Operation not found.'));
      const name = operation[1];
      const step = op.script[Math.min(op.queries++, op.script.length - 1)];
      if (typeof step === 'object' && 'body' in step) return sendJson(res, 200, step.body);
      if (typeof step === 'object')
        return sendJson(res, 200, { name, done: true, error: { code: step.error, message: 'failed at http://10.1.2.3/internal' } });
      if (step === 'running') return sendJson(res, 200, { name });
      if (step === 'moderation') {
        return sendJson(res, 200, {
          name,
          done: true,
          response: {
            '@type': RESPONSE_TYPE,
            generateVideoResponse: { raiMediaFilteredCount: 1, raiMediaFilteredReasons: ['blocked, see http://10.9.9.9'] },
          },
        });
      }
      return sendJson(res, 200, {
        name,
        done: true,
        response: {
          '@type': RESPONSE_TYPE,
          generateVideoResponse: {
            generatedSamples: [{ video: { uri: `${server.url}/v1beta/files/${operation[2]}:download?alt=media` } }],
          },
        },
      });
    }
    if (file && req.method === 'GET') {
      if (!operations.has(file[1]) || req.query.get('alt') !== 'media')
        return sendJson(res, 404, googleError(404, 'NOT_FOUND', 'File not found.'));
      res.writeHead(302, { location: `${storage.url}/storage/${file[1]}` });
      return void res.end();
    }
    if (req.method === 'GET' && req.path === '/v1beta/models') return sendJson(res, 200, { models: [] });
    sendJson(res, 404, googleError(404, 'NOT_FOUND', 'no such route'));
  });

  Object.assign(fake, {
    url: server.url,
    apiKey,
    requests: server.requests,
    defaultScript: ['running', 'done'],
    videoBytes: Buffer.concat([
      Buffer.from('\x00\x00\x00\x20ftypisom\x00\x00\x02\x00', 'latin1'),
      Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7) % 251)),
    ]),
    submits: () => server.requests.filter((r) => r.method === 'POST' && r.path.endsWith(':predictLongRunning')),
    downloads: () => server.requests.filter((r) => r.path.includes(':download')),
    storageRequests: () => storage.requests,
    scriptNext: (steps: VeoStep[]) => void (nextScript = steps),
    failNextSubmit: (error: { status: number; body?: unknown; headers?: Record<string, string> }) => void submitFailures.push(error),
    close: async () => {
      await server.close();
      await storage.close();
    },
  });
  return fake;
}

function serveBytes(req: RecordedRequest, res: ServerResponse, bytes: Buffer): void {
  const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ''));
  const start = range ? Number(range[1]) : 0;
  const end = range && range[2] ? Math.min(Number(range[2]), bytes.length - 1) : bytes.length - 1;
  const slice = bytes.subarray(start, end + 1);
  res.writeHead(range ? 206 : 200, {
    'content-type': 'video/mp4',
    'content-length': slice.length,
    'accept-ranges': 'bytes',
    ...(range ? { 'content-range': `bytes ${start}-${end}/${bytes.length}` } : {}),
  });
  res.end(slice);
}
