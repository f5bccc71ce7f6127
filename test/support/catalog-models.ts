import type { TestGateway } from './gateway';

/**
 * Adds OpenAI-compatible models to the catalog (custom entries with an `openai` route, any size,
 * 1 to 120 s), each at `pricePerSecond` quota units for any resolution: what an operator does
 * before listing them on a family O channel.
 */
export async function addOpenAiModels(gw: Pick<TestGateway, 'admin'>, models: readonly string[], pricePerSecond: number): Promise<void> {
  for (const id of models) {
    await gw.admin
      .post('/api/admin/models', {
        id,
        modes: ['text-to-video', 'image-to-video'],
        durations: { min: 1, max: 120 },
        default_duration: 4,
        resolutions: [],
        aspect_ratios: [],
        audio: 'none',
        prices: [{ resolution: '*', unit: 'second', price: pricePerSecond }],
        routes: [{ platform: 'openai', upstream_model: id }],
      })
      .expect(201);
  }
}
