import type { BuiltinEntry, ModelCapabilities } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { OPENAI_DEFAULT_PRICES } from './openai-default-prices';
import { OPENAI_MAX_SECONDS } from './openai-request.dto';
import { OPENAI_SIMULATOR_MODELS } from './simulator/openai-simulator.module';

/** OpenAI's default length, billed and sent when a submit names none (so the upstream makes what was billed). */
const DEFAULT_SECONDS = 4;
/** OpenAI's own Sora models make these lengths only (docs/upstream-protocols.md). */
const SORA_SECONDS = [4, 8, 12];

/** OpenAI shut Sora 2 and its Videos API down on 2026-09-24; no other route serves it. */
const SORA_2 = { status: 'retired', sunset: '2026-09-24' } as const;

/**
 * Family O's builtin entries (4, 8 or 12 s): the simulator's own model, which its seeded channel
 * lists (first: what a model adopted from a channel is shaped like), and OpenAI's Sora 2, retired.
 * Any other OpenAI-compatible model is a custom entry with an `openai` route; `resolutions` (sizes)
 * left empty take any size.
 */
export const OPENAI_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'openai',
  [
    ...OPENAI_SIMULATOR_MODELS.map((id) => ({ id, label: 'OpenAI-compatible simulator (Sora 2 rules)' })),
    { id: 'sora-2', label: 'Sora 2', lifecycle: SORA_2 },
    { id: 'sora-2-pro', label: 'Sora 2 Pro', lifecycle: SORA_2 },
  ].map((model) => ({
    ...model,
    modes: ['text-to-video', 'image-to-video'],
    durations: SORA_SECONDS,
    defaultDuration: DEFAULT_SECONDS,
    resolutions: [],
    aspectRatios: [],
    audio: 'none',
  })),
  OPENAI_DEFAULT_PRICES,
);

/**
 * What a model an `openai` channel listed before the catalog existed is adopted as: what the
 * gateway took for it then (a `sora-*` model 4, 8 or 12 s, any other 1 to 120 s), any size.
 */
export function openAiChannelModelCapabilities(model: string): Partial<ModelCapabilities> {
  return { durations: /^sora-/i.test(model) ? SORA_SECONDS : { min: 1, max: OPENAI_MAX_SECONDS }, defaultDuration: DEFAULT_SECONDS };
}
