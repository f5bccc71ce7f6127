/** A small valid entry as the admin API takes it (POST /api/admin/models, an import's or the feed's `models[i]`). */
export const ENTRY_INPUT = {
  id: 'm-1',
  modes: ['text-to-video'],
  durations: [5, 10],
  resolutions: ['720p'],
  aspect_ratios: ['16:9'],
  audio: 'none',
  prices: [{ resolution: '720p', unit: 'second', price: 100 }],
  routes: [{ platform: 'fal', upstream_model: 'fal-ai/x' }],
};
