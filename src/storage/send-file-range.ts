import type { Response } from 'express';
import { open } from 'node:fs/promises';

const CHUNK = 1024 * 1024;

/**
 * Writes bytes `start..end` of a file to the response with two reused 1 MiB buffers: one is read
 * from disk while the other is written to the socket. A buffer is read into again only after the
 * socket took its previous contents (the write callback), so memory stays flat and there is no
 * garbage per chunk: a stored video streams at disk speed. Stops when the client goes away.
 */
export async function sendFileRange(path: string, start: number, end: number, res: Response): Promise<void> {
  const file = await open(path, 'r');
  const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
  try {
    const buffers = [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)];
    const written: Array<Promise<unknown>> = [Promise.resolve(), Promise.resolve()];
    let position = start;
    for (let turn = 0; position <= end && !res.destroyed; turn ^= 1) {
      if ((await Promise.race([written[turn].then(() => 'free'), closed.then(() => 'closed')])) === 'closed') return;
      const { bytesRead } = await file.read(buffers[turn], 0, Math.min(CHUNK, end - position + 1), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      written[turn] = new Promise<void>((resolve) => res.write(buffers[turn].subarray(0, bytesRead), () => resolve()));
    }
    await Promise.race([Promise.all(written), closed]);
    if (position <= end)
      res.destroy(); // the file is shorter than recorded: never pretend it was whole
    else res.end();
  } finally {
    await file.close();
  }
}
