/** Where finished videos are kept (`VIDEO_STORE`). */
export type VideoStoreTarget = { kind: 'none' } | { kind: 'file'; dir: string } | { kind: 's3'; bucket: string; prefix: string };

/** `file:<dir>`, `s3://<bucket>[/<prefix>]` or `none`; throws a message for the config error otherwise. */
export function parseVideoStoreTarget(value: string): VideoStoreTarget {
  if (value === 'none') return { kind: 'none' };
  if (value.startsWith('file:')) {
    const dir = value.slice('file:'.length);
    if (!dir) throw new Error('file: needs a directory');
    return { kind: 'file', dir };
  }
  const s3 = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(value);
  if (s3) return { kind: 's3', bucket: s3[1], prefix: (s3[2] ?? '').replace(/^\/+|\/+$/g, '') };
  throw new Error('must be file:<dir>, s3://<bucket>[/<prefix>] or none');
}
