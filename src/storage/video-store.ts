import type { Readable } from 'node:stream';

/** A byte range, both ends inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where the gateway keeps its own copy of finished videos (file or S3). Writes are all or nothing:
 * a partly written object is never visible under its key.
 */
export interface VideoStore {
  readonly kind: 'file' | 's3';
  /**
   * Streams `body` into `key`, committing only once it ended without error (a rename, or the
   * completion of a multipart upload). Resolves with the bytes written.
   */
  write(key: string, body: Readable, contentType: string): Promise<number>;
  /** A small object written in one piece (a thumbnail). */
  writeSmall(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The object's bytes, or a range of them. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** The object's length in bytes (a missing object rejects, as `read` does). */
  size(key: string): Promise<number>;
  /** Something ffmpeg can open and seek in: a file path or a short-lived URL. */
  locate(key: string): Promise<string>;
  /** The object's path when it is a local file (served with reused buffers, see sendFileRange); null otherwise. */
  localPath?(key: string): string;
  /** Removes the object; an absent one is fine. */
  remove(key: string): Promise<void>;
}

export const VIDEO_STORE = Symbol('VIDEO_STORE');
