import type { Provider } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { FileVideoStore } from './file-video-store';
import { VIDEO_STORE, type VideoStore } from './video-store';

/** The store `VIDEO_STORE` names, or null for `none` (a pure proxy of the provider). */
export async function openVideoStore(config: AppConfig): Promise<VideoStore | null> {
  const target = config.videoStore;
  if (target.kind === 'file') return new FileVideoStore(target.dir);
  if (target.kind === 's3') {
    // The AWS SDK is loaded only when used: a file-store gateway does not carry it in memory.
    const { S3VideoStore } = await import('./s3-video-store');
    return S3VideoStore.create(target.bucket, target.prefix, config.videoStorePathStyle);
  }
  return null;
}

export const videoStoreProvider: Provider = {
  provide: VIDEO_STORE,
  inject: [APP_CONFIG],
  useFactory: openVideoStore,
};
