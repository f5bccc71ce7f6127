import { Injectable, Logger } from '@nestjs/common';
import { spawn } from 'node:child_process';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';

/** A poster frame is small; anything larger is not what we asked for. */
const MAX_THUMBNAIL_BYTES = 2 * 1024 * 1024;
const TIMEOUT_MS = 30_000;

/**
 * Poster frames with ffmpeg (the static binary of `@ffmpeg-installer/ffmpeg`, shipped inside the npm
 * package: no system package, no download at install). The input is a path or a URL ffmpeg can seek
 * in, so the video is never piped through memory. Null when the video cannot be decoded.
 */
@Injectable()
export class ThumbnailMaker {
  private readonly logger = new Logger('Thumbnail');
  /** Replaceable in tests. */
  ffmpegPath: string = ffmpegInstaller.path;

  /** A JPEG of a frame about one second in (the first frame for shorter videos), at most 640 px wide. */
  async posterFrame(input: string): Promise<Buffer | null> {
    return (await this.run(input, '1')) ?? (await this.run(input, '0'));
  }

  private run(input: string, seekSeconds: string): Promise<Buffer | null> {
    const args = [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-ss',
      seekSeconds,
      '-i',
      input,
      '-frames:v',
      '1',
      '-vf',
      "scale='min(640,iw)':-2",
      '-f',
      'image2',
      '-c:v',
      'mjpeg',
      '-q:v',
      '4',
      'pipe:1',
    ];
    return new Promise((resolve) => {
      const child = spawn(this.ffmpegPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      const chunks: Buffer[] = [];
      let size = 0;
      let stderr = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
      child.stdout.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_THUMBNAIL_BYTES) child.kill('SIGKILL');
        else chunks.push(chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-500)));
      child.once('error', (error) => {
        clearTimeout(timer);
        this.logger.warn(`ffmpeg could not start: ${error.message}`);
        resolve(null);
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        const image = Buffer.concat(chunks);
        const isJpeg = image.length > 3 && image[0] === 0xff && image[1] === 0xd8;
        if (code === 0 && isJpeg && size <= MAX_THUMBNAIL_BYTES) return resolve(image);
        if (code !== 0) this.logger.debug(`no poster frame at ${seekSeconds}s: ${stderr.trim().split('\n').pop() ?? code}`);
        resolve(null);
      });
    });
  }
}
