import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../config/app-config';
import { openVideoStore } from '../storage/video-store.provider';
import { withinTime } from '../common/runtime/within-time';

/** A store that has not answered a probe by then is as good as unusable (the SDK's own retries included). */
const PROBE_TIMEOUT_MS = 5000;

/**
 * Before the start: writes and removes a small probe object in the video store, so that a store the
 * gateway cannot write (no region or credentials, a missing bucket, a read-only directory) stops the
 * start in one line naming VIDEO_STORE, instead of every archive failing later in the background.
 * Answers that line, or null when the store works (or is `none`).
 */
export async function checkVideoStore(config: AppConfig): Promise<string | null> {
  const store = await openVideoStore(config);
  if (!store) return null;
  const key = `start-probe-${randomBytes(8).toString('hex')}`;
  try {
    await withinTime(
      store.writeSmall(key, Buffer.from('probe'), 'text/plain').then(() => store.remove(key)),
      PROBE_TIMEOUT_MS,
      () => new Error(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`),
    );
    return null;
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    const hint =
      store.kind === 's3' ? ' (the AWS SDK reads AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_ENDPOINT_URL_S3)' : '';
    return `VIDEO_STORE: cannot write to ${describeVideoStore(config)}: ${reason}${hint}`;
  }
}

/** `file:/abs/dir`, `s3://bucket/prefix`, or `none`, as the start-up lines name it. */
export function describeVideoStore(config: AppConfig): string {
  const target = config.videoStore;
  if (target.kind === 'file') return `file:${target.dir}`;
  if (target.kind === 's3') return `s3://${target.bucket}${target.prefix ? `/${target.prefix}` : ''}`;
  return 'none (no copy: /content reads the provider)';
}
