import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLoopbackServer } from './http-server';
import { makeTestVideo } from './test-videos';

export interface SourceVideoServer {
  /** The link of a real MP4 of that many seconds (160x90, silent), made on first start. */
  linkOf(seconds: number): string;
  close(): Promise<void>;
}

/**
 * Real source videos for an emulator to fetch and read (an edit's or extension's source), one per
 * length asked, on a loopback server: `/<seconds>s.mp4`; any other path is a 404.
 */
export async function startSourceVideoServer(lengths: readonly number[]): Promise<SourceVideoServer> {
  const dir = await mkdtemp(join(tmpdir(), 'source-videos-'));
  const files = new Map<string, Buffer>();
  for (const seconds of lengths) {
    const path = await makeTestVideo(join(dir, `${seconds}s.mp4`), { seconds, width: 160, height: 90, audio: false });
    files.set(`/${seconds}s.mp4`, await readFile(path));
  }
  const server = await startLoopbackServer((req, res) => {
    const bytes = files.get(req.path);
    res.statusCode = bytes ? 200 : 404;
    if (bytes) res.setHeader('Content-Type', 'video/mp4');
    res.end(bytes ?? 'not found');
  });
  return {
    linkOf: (seconds) => `${server.url}/${seconds}s.mp4`,
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
