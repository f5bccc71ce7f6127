import { FalEmulatorServer, startFalEmulator } from './fal-emulator';
import { startGateway, TestGateway } from './gateway';
import { KlingEmulatorServer, startKlingEmulator } from './kling-emulator';
import type { DatabaseKind } from './test-databases';

/** Kling 2.5 Turbo sold once (its price per second), routed on Kling itself and on fal's endpoints of the same model. */
export const PER_SECOND = 420;
export const FAL_ENDPOINT = 'fal-ai/kling-video/v2.5-turbo/standard/text-to-video';

export const KLING_ON_TWO_PLATFORMS = {
  id: 'kling-2-5-failover',
  modes: ['text-to-video', 'image-to-video'],
  durations: [5, 10],
  default_duration: 5,
  resolutions: ['720p'],
  aspect_ratios: ['16:9', '9:16', '1:1'],
  audio: 'none',
  prices: [{ resolution: '720p', unit: 'second', price: PER_SECOND }],
  routes: [
    { platform: 'kling', upstream_model: 'kling-v2-5-turbo' },
    {
      platform: 'fal',
      upstream_model: { 'text-to-video': FAL_ENDPOINT, 'image-to-video': 'fal-ai/kling-video/v2.5-turbo/standard/image-to-video' },
      // No negative_prompt: fal's route refuses a request that carries one (Kling's takes it).
      options: {
        input_map: {
          prompt: 'prompt',
          first_frame: 'image_url',
          seconds: { field: 'duration', as: 'string' },
          aspect_ratio: 'aspect_ratio',
        },
      },
    },
  ],
};

export interface KlingOnTwoPlatforms {
  gw: TestGateway;
  kling: KlingEmulatorServer;
  fal: FalEmulatorServer;
  klingId: number;
  falId: number;
  close(): Promise<void>;
}

/**
 * A gateway selling the model above, with a channel on each platform against its emulator (`kling-direct`,
 * `kling-on-fal`); `first` is the one that outranks the other.
 */
export async function startKlingOnTwoPlatforms(kind: DatabaseKind, first: 'kling' | 'fal'): Promise<KlingOnTwoPlatforms> {
  const [kling, fal] = await Promise.all([startKlingEmulator(), startFalEmulator()]);
  const gw = await startGateway(kind);
  await gw.admin.post('/api/admin/models', KLING_ON_TWO_PLATFORMS).expect(201);
  const models = [KLING_ON_TWO_PLATFORMS.id];
  const priority = (platform: 'kling' | 'fal') => (platform === first ? 10 : 0);
  const klingId = await gw.createChannel({
    name: 'kling-direct',
    platform: 'kling',
    base_url: kling.url,
    api_key: kling.apiKey,
    models,
    priority: priority('kling'),
  });
  const falId = await gw.createChannel({
    name: 'kling-on-fal',
    platform: 'fal',
    base_url: fal.url,
    api_key: fal.apiKey,
    models,
    priority: priority('fal'),
  });
  return {
    gw,
    kling,
    fal,
    klingId,
    falId,
    async close() {
      await gw.close();
      await Promise.all([kling.close(), fal.close()]);
    },
  };
}
