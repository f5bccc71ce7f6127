/** What a media file's first bytes say it is (magic numbers), for the cheap pre-charge check. */
export type SniffedFormat = 'jpeg' | 'png' | 'webp' | 'mp4' | 'unknown';

/** Bytes to read from the start of a media file: enough for every signature below. */
export const SNIFF_BYTES = 16;

const ISO_BMFF_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot']);

export function sniffFormat(head: Buffer): SniffedFormat {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  // MP4 and MOV are both ISO base media files: a box type at byte 4.
  if (head.length >= 8 && ISO_BMFF_BOXES.has(head.toString('latin1', 4, 8))) return 'mp4';
  return 'unknown';
}

/** Total size from `Content-Range: bytes 0-15/12345`, else `Content-Length` of a full answer. */
export function totalSizeOf(status: number, headers: Record<string, unknown>): number | null {
  const range = headers['content-range'];
  if (status === 206 && typeof range === 'string') {
    const total = /\/(\d+)\s*$/.exec(range)?.[1];
    return total ? Number(total) : null;
  }
  const length = Number(headers['content-length']);
  return status === 200 && Number.isFinite(length) && length >= 0 ? length : null;
}
