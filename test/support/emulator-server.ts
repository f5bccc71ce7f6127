import type { ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { EmulatorForm, EmulatorReply, EmulatorRequest } from '../../src/families/simulator-shared/emulator-http';
import { LoopbackServer, RecordedRequest, sendJson, startLoopbackServer } from './http-server';

/** The bytes the tests' emulators serve as every finished video: an MP4 header and 50 kB of a known pattern. */
export function testVideoBytes(): Buffer {
  return Buffer.concat([
    Buffer.from('\x00\x00\x00\x20ftypisom\x00\x00\x02\x00', 'latin1'),
    Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7) % 251)),
  ]);
}

/** A family's emulator (src/families/<family>/emulator) on its own loopback server, as tests run it. */
export async function serveEmulator(handle: (req: EmulatorRequest, base: string) => Promise<EmulatorReply>): Promise<LoopbackServer> {
  let base = '';
  const server = await startLoopbackServer(async (req: RecordedRequest, res: ServerResponse) => {
    const form = await formOf(req);
    const request = { method: req.method, path: req.path, query: req.query, headers: req.headers, wirePath: req.path, body: req.body };
    writeEmulatorReply(res, await handle(form ? { ...request, form } : { ...request, json: req.json }, base), req.headers.range);
  });
  base = server.url;
  return server;
}

/** A multipart body's fields and files, as the emulator sees them; undefined for any other body. */
export async function formOf(req: RecordedRequest): Promise<EmulatorForm | undefined> {
  const type = String(req.headers['content-type'] ?? '');
  if (!type.startsWith('multipart/form-data')) return undefined;
  const parsed = await new Request('http://emulator/', {
    method: 'POST',
    headers: { 'content-type': type },
    body: new Uint8Array(req.body),
  }).formData();
  const form: EmulatorForm = { fields: {}, files: [] };
  for (const [field, value] of parsed.entries()) {
    if (typeof value === 'string') form.fields[field] = value;
    else form.files.push({ field, name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) });
  }
  return form;
}

/**
 * Writes an emulator's reply; a video honours `Range` as a CDN or signed storage does: `bytes=a-b`,
 * `bytes=a-` and `bytes=-n` (206), an unsatisfiable range 416.
 */
export function writeEmulatorReply(res: ServerResponse, reply: EmulatorReply, range: string | undefined): void {
  if ('video' in reply) {
    const bytes = 'bytes' in reply.video ? reply.video.bytes : readFileSync(reply.video.file);
    const asked = /^bytes=(\d*)-(\d*)$/.exec(range ?? '');
    let start = 0;
    let end = bytes.length - 1;
    if (asked && asked[1] === '') start = Math.max(0, bytes.length - Number(asked[2]));
    else if (asked) [start, end] = [Number(asked[1]), asked[2] ? Math.min(Number(asked[2]), bytes.length - 1) : end];
    if (asked && (start >= bytes.length || start > end))
      return void res.writeHead(416, { 'content-range': `bytes */${bytes.length}` }).end();
    const slice = bytes.subarray(start, end + 1);
    res.writeHead(asked ? 206 : 200, {
      'content-type': 'video/mp4',
      'content-length': slice.length,
      'accept-ranges': 'bytes',
      ...(asked ? { 'content-range': `bytes ${start}-${end}/${bytes.length}` } : {}),
    });
    return void res.end(slice);
  }
  if ('text' in reply) return void res.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.text);
  if ('raw' in reply)
    return void res
      .writeHead(reply.status, { 'content-type': reply.type, 'content-length': Buffer.byteLength(reply.raw), ...reply.headers })
      .end(reply.raw);
  if ('html' in reply)
    return void res.writeHead(reply.status, { ...reply.headers, 'content-type': 'text/html; charset=utf-8' }).end(reply.html);
  if (reply.json === undefined) return void res.writeHead(reply.status, reply.headers).end();
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  sendJson(res, reply.status, reply.json);
}
