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
