import type { ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { EmulatorReply, EmulatorRequest } from '../../src/families/simulator-shared/emulator-http';
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
  const server = await startLoopbackServer(async (req: RecordedRequest, res: ServerResponse) =>
    send(
      res,
      await handle(
        { method: req.method, path: req.path, query: req.query, headers: req.headers, json: req.json, wirePath: req.path, body: req.body },
        base,
      ),
      req.headers.range,
    ),
  );
  base = server.url;
  return server;
}

/** A video honours `Range: bytes=a-b` (206), as a CDN or signed storage does. */
function send(res: ServerResponse, reply: EmulatorReply, range: string | undefined): void {
  if ('video' in reply) {
    const bytes = 'bytes' in reply.video ? reply.video.bytes : readFileSync(reply.video.file);
    const asked = /^bytes=(\d+)-(\d*)$/.exec(range ?? '');
    const start = asked ? Number(asked[1]) : 0;
    const end = asked && asked[2] ? Math.min(Number(asked[2]), bytes.length - 1) : bytes.length - 1;
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
  if ('html' in reply)
    return void res.writeHead(reply.status, { ...reply.headers, 'content-type': 'text/html; charset=utf-8' }).end(reply.html);
  if (reply.json === undefined) return void res.writeHead(reply.status, reply.headers).end();
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  sendJson(res, reply.status, reply.json);
}
