import type { Request, Response } from 'express';
import { existsSync } from 'node:fs';
import type { SimulatorRecord } from './simulator-records.service';

/**
 * A provider emulator speaks HTTP through these plain shapes, so one emulator serves both the
 * embedded simulator (Express, under /simulator/<platform>) and the tests (a bare loopback server).
 */
export interface EmulatorRequest {
  method: string;
  /** The path below the emulator's mount point (`/v1/tasks/abc`). */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  json?: unknown;
  /** A multipart body's fields and files (then no `json`). */
  form?: EmulatorForm;
  /** The path as the client sent it, the mount included: what a request signature covers. */
  wirePath?: string;
  /** The body's bytes as they arrived, for a check over them (a signature); absent where the body was parsed as JSON. */
  body?: Buffer;
}

/** A multipart form as the emulator sees it, however the server parsed it. */
export interface EmulatorForm {
  fields: Record<string, string>;
  files: Array<{ field: string; name: string; type: string; bytes: Buffer }>;
}

/** The bytes of a finished video: a file (the simulator's sample) or a buffer (a test's own). */
export type EmulatedVideo = { file: string } | { bytes: Buffer };

/** What a task asked of its video, as far as the family's request says; what it leaves unsaid is the family's default. */
export interface AskedVideo {
  seconds?: number;
  /** A resolution name (`720p`, `1080P`, `4k`), read with `aspectRatio` (`16:9`, `9:16`). */
  resolution?: string;
  aspectRatio?: string;
  /** An exact frame (`1280x720`), where the family asks for one; it wins over `resolution`. */
  size?: string;
  audio?: boolean;
}

/**
 * The video an emulator's finished tasks serve: the same bytes for every task (a test's), or made to
 * order from what each task asked (the simulator's: so a task settles at what it was charged).
 */
export type VideoSource = EmulatedVideo | { madeFor: (asked: AskedVideo) => Promise<EmulatedVideo> };

/** The video a finished task serves, given what it asked. */
export async function deliveredVideo(source: VideoSource, asked: AskedVideo): Promise<EmulatedVideo> {
  return 'madeFor' in source ? source.madeFor(asked) : source;
}

export type EmulatorReply =
  | { status: number; json?: unknown; headers?: Record<string, string> }
  | { status: number; text: string }
  /** A body sent byte for byte with this content type (JSON numbers written as floats, a body too large to build, XML). */
  | { status: number; raw: string | Buffer; type: string; headers?: Record<string, string> }
  | { status: number; html: string; headers?: Record<string, string> }
  | { status: 200; video: EmulatedVideo };

/** Where an emulator keeps its state: the gateway's database for the simulator (SimulatorRecords), memory in tests. */
export interface EmulatorRecords {
  /** Stores a record unless its key exists, and answers the stored one; `parentKey` files it under another (an asset's group). */
  insertOrGet<T>(kind: string, key: string, data: T, parentKey?: string | null): Promise<SimulatorRecord<T>>;
  find<T>(kind: string, key: string): Promise<SimulatorRecord<T> | null>;
  /** The records of a kind, newest first; `parentKeys` narrows to those children. */
  list<T>(kind: string, options?: { parentKeys?: string[]; limit?: number }): Promise<SimulatorRecord<T>[]>;
  /** A record by its sequence number (family A's integer ids are these). */
  findBySeq<T>(kind: string, seq: number): Promise<SimulatorRecord<T> | null>;
  update<T>(kind: string, key: string, data: T): Promise<void>;
  remove(kind: string, key: string): Promise<boolean>;
  forgetOlderThan(kind: string, cutoff: number): Promise<void>;
}

/** Records in memory, for an emulator a test runs on its own. */
export function memoryRecords(now: () => number): EmulatorRecords {
  const rows = new Map<string, SimulatorRecord<unknown>>();
  let seq = 0;
  const id = (kind: string, key: string) => `${kind}\n${key}`;
  return {
    async insertOrGet<T>(kind: string, key: string, data: T, parentKey: string | null = null) {
      if (!rows.has(id(kind, key))) rows.set(id(kind, key), { seq: ++seq, key, parentKey, data, createdAt: now() });
      return rows.get(id(kind, key)) as SimulatorRecord<T>;
    },
    async find<T>(kind: string, key: string) {
      return (rows.get(id(kind, key)) as SimulatorRecord<T> | undefined) ?? null;
    },
    async list<T>(kind: string, options: { parentKeys?: string[]; limit?: number } = {}) {
      const { parentKeys, limit = 1000 } = options;
      return [...rows.entries()]
        .filter(
          ([name, row]) => name.startsWith(`${kind}\n`) && (!parentKeys || (row.parentKey !== null && parentKeys.includes(row.parentKey))),
        )
        .map(([, row]) => row as SimulatorRecord<T>)
        .sort((a, b) => b.seq - a.seq)
        .slice(0, limit);
    },
    async findBySeq<T>(kind: string, seq: number) {
      for (const [name, row] of rows) if (row.seq === seq && name.startsWith(`${kind}\n`)) return row as SimulatorRecord<T>;
      return null;
    },
    async update<T>(kind: string, key: string, data: T) {
      const row = rows.get(id(kind, key));
      if (row) row.data = data;
    },
    async remove(kind: string, key: string) {
      return rows.delete(id(kind, key));
    },
    async forgetOlderThan(kind: string, cutoff: number) {
      for (const [name, row] of rows) if (name.startsWith(`${kind}\n`) && row.createdAt < cutoff) rows.delete(name);
    },
  };
}

/** What multer's memory storage makes of a file part. */
type MulterPart = { fieldname: string; originalname: string; mimetype: string; buffer: Buffer };

/** An Express request as the emulator mounted at `mount` sees it (a multipart body as multer left it: fields in `body`, files in `file`/`files`). */
export function emulatorRequestOf(req: Request, mount: string): EmulatorRequest {
  const url = new URL(req.originalUrl, 'http://emulator');
  // A mount whose body parser keeps the bytes (a signed control plane, see bootstrap) hands them on as they are.
  const raw = Buffer.isBuffer(req.body) ? req.body : undefined;
  const request = {
    method: req.method,
    path: url.pathname.slice(mount.length) || '/',
    query: url.searchParams,
    headers: req.headers,
    wirePath: url.pathname,
  };
  if (raw) return { ...request, body: raw };
  if (!req.is('multipart/form-data')) return { ...request, json: req.body };
  const parts = req as Request & { file?: MulterPart; files?: MulterPart[] | Record<string, MulterPart[]> };
  const uploaded = [
    ...(parts.file ? [parts.file] : []),
    ...(Array.isArray(parts.files) ? parts.files : Object.values(parts.files ?? {}).flat()),
  ];
  const files = uploaded.map((file) => ({ field: file.fieldname, name: file.originalname, type: file.mimetype, bytes: file.buffer }));
  return { ...request, form: { fields: (req.body ?? {}) as Record<string, string>, files } };
}

/** Sends an emulator's reply through Express (a video file with Range and HEAD, as a CDN would). */
export function sendEmulatorReply(res: Response, reply: EmulatorReply): void {
  if ('video' in reply) {
    const { video } = reply;
    if ('file' in video) {
      if (!existsSync(video.file))
        return void res.status(404).type('text/plain').send('the simulator sample video is missing from this build');
      return void res.sendFile(video.file, { headers: { 'Content-Type': 'video/mp4' } });
    }
    return void res.status(200).type('video/mp4').send(video.bytes);
  }
  if ('text' in reply) return void res.status(reply.status).type('text/plain').send(reply.text);
  res.status(reply.status);
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  if ('raw' in reply) return void res.type(reply.type).send(Buffer.from(reply.raw));
  if ('html' in reply) return void res.type('html').send(reply.html);
  if (reply.json === undefined) return void res.end();
  res.json(reply.json);
}
