import { Mutex } from 'async-mutex';
import type { MediaInfo } from 'mediainfo.js';

/** The bytes MediaInfo asks for at a time: a ranged read each, so small enough to read little past the headers. */
export const MEDIA_INFO_CHUNK_BYTES = 64 * 1024;

/**
 * mediainfo.js's WASM, read from its package in node_modules (a path that holds from src/, dist/ and
 * Jest alike, so the build copies nothing).
 */
const WASM_PATH = require.resolve('mediainfo.js/MediaInfoModule.wasm');

let instance: Promise<MediaInfo<'object'>> | null = null;
const turns = new Mutex();

/** MediaInfoLib, compiled once per process on first use (a file-store gateway that never asks loads nothing). */
function mediaInfo(): Promise<MediaInfo<'object'>> {
  instance ??= import('mediainfo.js')
    .then(({ default: mediaInfoFactory }) =>
      mediaInfoFactory({ format: 'object', chunkSize: MEDIA_INFO_CHUNK_BYTES, locateFile: () => WASM_PATH }),
    )
    .catch((error: unknown) => {
      instance = null;
      throw error;
    });
  return instance;
}

/** Runs `work` with the one MediaInfo instance; it analyses one file at a time, so callers take turns. */
export function withMediaInfo<T>(work: (mediaInfo: MediaInfo<'object'>) => Promise<T>): Promise<T> {
  return turns.runExclusive(async () => work(await mediaInfo()));
}

/** Drops the instance (after a failure of its own): the next call compiles a fresh one. */
export function discardMediaInfo(): void {
  instance = null;
}
