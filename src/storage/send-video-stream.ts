import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { sendFileRange } from './send-file-range';
import type { VideoStream } from './video-delivery.service';

/**
 * Writes an opened video to the response: its status and headers, then the bytes chunk by
 * chunk (none for HEAD, 304 or 416). If either side goes away the other is closed; nothing more to report.
 */
export async function sendVideoStream(video: VideoStream, req: Request, res: Response): Promise<void> {
  res.status(video.status).set(video.headers);
  if (video.file && req.method !== 'HEAD')
    return sendFileRange(video.file.path, video.file.start, video.file.end, res).catch(() => void res.destroy());
  if (req.method === 'HEAD' || !video.body) {
    video.body?.destroy();
    res.end();
    return;
  }
  await pipeline(video.body, res).catch(() => undefined);
}
