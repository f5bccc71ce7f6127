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

/**
 * Builtin models their provider retired, made active again as an operator whose provider account
 * still serves them does (`PATCH /api/admin/models/:id`): tests of a family's wire keep its own ids.
 */
export async function reactivateModels(gw: Pick<TestGateway, 'admin'>, models: readonly string[]): Promise<void> {
  for (const id of models) {
    await gw.admin
      .patch(`/api/admin/models/${encodeURIComponent(id)}`, { status: 'active', sunset_at: null, replacement: null })
      .expect(200);
  }
}
