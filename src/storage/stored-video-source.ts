import type { Readable } from 'node:stream';
import type { RangedSource } from '../media/video-facts';
import type { VideoStore } from './video-store';

/**
 * A stored video as a RangedSource (what readVideoFacts reads): its size asked once (a stat, an S3
 * HeadObject), then each read one ranged read of the store (a file range, a ranged GetObject).
 */
export async function storedVideoSource(store: VideoStore, key: string): Promise<RangedSource> {
  const size = await store.size(key);
  return {
    size,
    async read(offset, length) {
      const end = Math.min(offset + length, size) - 1;
      if (offset < 0 || end < offset) return Buffer.alloc(0);
      return firstBytes(await store.read(key, { start: offset, end }), end - offset + 1);
    },
  };
}

/** The first `count` bytes of `stream`, which is closed then: a server that ignored the range sends no more than asked. */
async function firstBytes(stream: Readable, count: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      received += chunk.length;
      if (received >= count) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, count);
}
