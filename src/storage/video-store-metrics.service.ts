import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { MetricsRegistry } from '../metrics/metrics-registry';
import { VideoArchiveRepository } from './video-archive.repository';

/** What the video store holds, in /metrics (read from the tasks' archive state, so every instance agrees). */
@Injectable()
export class VideoStoreMetrics {
  constructor(registry: MetricsRegistry, archives: VideoArchiveRepository) {
    new Gauge({
      name: 'gateway_video_store_bytes',
      help: 'Bytes of archived videos and thumbnails in the video store',
      registers: [registry],
      async collect() {
        this.set((await archives.totals()).bytes);
      },
    });
    new Gauge({
      name: 'gateway_video_store_objects',
      help: 'Objects (videos and thumbnails) in the video store',
      registers: [registry],
      async collect() {
        this.set((await archives.totals()).objects);
      },
    });
    new Gauge({
      name: 'gateway_video_archives',
      help: 'Finished tasks by archive state (pending, failed)',
      labelNames: ['state'] as const,
      registers: [registry],
      async collect() {
        const totals = await archives.totals();
        this.set({ state: 'pending' }, totals.pending);
        this.set({ state: 'failed' }, totals.failed);
      },
    });
  }
}
