import type { EmulatorRequest } from './emulator-http';

/**
 * The parts of a file link's path (a video, or its cover, fetched with GET or HEAD as from a CDN),
 * or null for any other request: another method on the same path is an API call like any other.
 */
export function fileLinkMatch(req: EmulatorRequest, path: RegExp): RegExpExecArray | null {
  return req.method === 'GET' || req.method === 'HEAD' ? path.exec(req.path) : null;
}
