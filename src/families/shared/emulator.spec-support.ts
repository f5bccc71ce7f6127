import {
  type AskedVideo,
  type EmulatorReply,
  type EmulatorRequest,
  memoryRecords,
  type VideoSource,
} from '../simulator-shared/emulator-http';

/** What the emulator specs share (never imported by the gateway itself; the build leaves `*.spec-support.ts` out). */

/** What an emulator runs on in a spec: records in memory on the clock `now` reads, and a video to serve (a sample file unless told). */
export function emulatorState(now: () => number, video: VideoSource = { file: '/sample.mp4' }) {
  return { records: memoryRecords(now), now, video };
}

/** A video source for emulator specs: it serves one byte (`x`) and keeps, in `seen`, what each fetched video asked. */
export function recordingVideoSource(): { seen: AskedVideo[]; source: VideoSource } {
  const seen: AskedVideo[] = [];
  return { seen, source: { madeFor: async (asked) => (seen.push(asked), { bytes: Buffer.from('x') }) } };
}

/**
 * What an emulator runs on in a "video made to order" spec: records in memory on `now` (the wall
 * clock unless told), and a recordingVideoSource, whose `seen` keeps what each fetched video asked.
 */
export function recordingEmulatorState(now: () => number = () => Date.now()) {
  const { seen, source } = recordingVideoSource();
  return { seen, state: emulatorState(now, source) };
}

/** A request to an emulator as the simulator hands it over, with an `Authorization` header. */
export function emulatorRequest(method: string, path: string, json: unknown, authorization: string): EmulatorRequest {
  return { method, path, query: new URLSearchParams(), headers: { authorization }, json };
}

/**
 * Requests to an emulator that carry a key in `header`, as `format` writes it: `defaultKey` unless a
 * request names another, none for a null one. A target's query is kept.
 */
export function keyedRequests(header: string, defaultKey: string, format: (key: string) => string = (key) => key) {
  return (method: string, target: string, json?: unknown, key: string | null = defaultKey): EmulatorRequest => {
    const url = new URL(target, 'http://x');
    return { method, path: url.pathname, query: url.searchParams, headers: key === null ? {} : { [header]: format(key) }, json };
  };
}

/**
 * A caller of an emulator mounted at `base` that sends `headers`: its target is a path below the
 * mount, or a URL the emulator handed out (the mount stripped), whose query is kept.
 */
export function emulatorCaller(
  emulator: { handle(req: EmulatorRequest, base: string): Promise<EmulatorReply> },
  base: string,
  headers: Record<string, string>,
) {
  return (method: string, target: string, json?: unknown): Promise<EmulatorReply> => {
    const url = new URL(target.replace(base, ''), 'http://x');
    return emulator.handle({ method, path: url.pathname, query: url.searchParams, headers, json }, base);
  };
}

/** The JSON an emulator answered (null for a file). */
export function replyJson(reply: EmulatorReply): Record<string, any> | null {
  return 'json' in reply ? (reply.json as Record<string, any>) : null;
}
