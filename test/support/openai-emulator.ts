/**
 * The family O emulator (src/families/openai/emulator, the same one the embedded simulator runs) on a
 * loopback server of its own, its videos in memory, under `/v1` like OpenAI's, with the test key
 * `openai-test-key`:
 *
 *   const fake = await startOpenAiEmulator();        // channel base_url: `${fake.url}/v1`, api_key: fake.apiKey
 *
 * Every call needs `Authorization: Bearer <key>` (401 `invalid_api_key`). It takes any model, seconds
 * and size (a compatible server whose models the operator lists). `POST /v1/videos` (JSON or multipart)
 * answers `queued`; `GET /v1/videos/<id>` answers the video's script one step per query, repeating the
 * last; `GET /v1/videos/<id>/content` serves `videoBytes` (Range honoured) once completed; `GET /v1/videos` lists.
 * - `defaultScript` (default `['queued', 'in_progress', 'completed']`), `scriptNext([...])`; a step is a
 *   status, `{ status: 'failed', code?, message? }`, or any `{ body }` answered as it is.
 * - `failNextSubmit({ status, body?, headers? })`: the next submit answers this error.
 * - `submits()`: every submit, parsed (`json`, or multipart `fields` and `file`).
 */
import { memoryRecords } from '../../src/families/simulator-shared/emulator-http';
import { OpenAiEmulator, OpenAiScriptedFailure, OpenAiStep } from '../../src/families/openai/emulator/openai-emulator';
import { formOf, serveEmulator, testVideoBytes } from './emulator-server';
import type { RecordedRequest } from './http-server';

export type { OpenAiStep };

export interface ParsedSubmit {
  request: RecordedRequest;
  json?: Record<string, unknown>;
  fields?: Record<string, string>;
  file?: { name: string; type: string; bytes: Buffer };
}

export interface OpenAiEmulatorServer {
  /** The server's origin; the API is at `${url}/v1`. */
  url: string;
  apiKey: string;
  /** Every request the server received, in order. */
  requests: RecordedRequest[];
  /** The script of every video not scripted with `scriptNext`. */
  defaultScript: OpenAiStep[];
  /** The bytes of every completed video's content. */
  videoBytes: Buffer;
  /** What every completed video's content serves from now on (a real clip of a chosen shape). */
  serveVideo(bytes: Buffer): void;
  submits(): Promise<ParsedSubmit[]>;
  contentRequests(): RecordedRequest[];
  scriptNext(steps: OpenAiStep[]): void;
  failNextSubmit(failure: OpenAiScriptedFailure): void;
  close(): Promise<void>;
}

export async function startOpenAiEmulator(options: { apiKey?: string } = {}): Promise<OpenAiEmulatorServer> {
  const apiKey = options.apiKey ?? 'openai-test-key';
  const videoBytes = testVideoBytes();
  const video = { bytes: videoBytes };
  const emulator = new OpenAiEmulator({
    apiKey,
    records: memoryRecords(() => Date.now()),
    now: () => Date.now(),
    video,
    defaultScript: ['queued', 'in_progress', 'completed'],
  });
  const server = await serveEmulator(async (req) =>
    req.path.startsWith('/v1/')
      ? emulator.handle({ ...req, path: req.path.slice('/v1'.length) })
      : { status: 404, json: { error: { message: 'no such route', type: 'invalid_request_error', param: null, code: null } } },
  );
  return {
    url: server.url,
    apiKey,
    requests: server.requests,
    get defaultScript() {
      return emulator.defaultScript ?? [];
    },
    set defaultScript(steps: OpenAiStep[]) {
      emulator.defaultScript = steps;
    },
    videoBytes,
    serveVideo: (bytes) => {
      video.bytes = bytes;
    },
    submits: () => Promise.all(server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/videos').map(parse)),
    contentRequests: () => server.requests.filter((r) => r.path.endsWith('/content')),
    scriptNext: (steps) => emulator.scriptNext(steps),
    failNextSubmit: (failure) => emulator.failNextSubmit(failure),
    close: () => server.close(),
  };
}

async function parse(request: RecordedRequest): Promise<ParsedSubmit> {
  const form = await formOf(request);
  if (!form) return { request, json: request.json as Record<string, unknown> };
  const [file] = form.files;
  return { request, fields: form.fields, ...(file ? { file: { name: file.name, type: file.type, bytes: file.bytes } } : {}) };
}
