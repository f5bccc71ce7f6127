import type { BuiltinEntry } from '../../catalog/catalog-entry';
import { builtinEntries } from '../shared/builtin-entry';
import { OPENAI_DEFAULT_PRICES } from './openai-default-prices';
import { OPENAI_DEFAULT_SECONDS } from './openai-drafts.service';
import { OPENAI_MAX_SECONDS } from './openai-request.dto';
import { OPENAI_SIMULATOR_MODELS } from './simulator/openai-simulator.module';

/**
 * Family O's builtin entries: the models its simulator channel lists. Any other OpenAI-compatible
 * model is a custom entry with an `openai` route; `resolutions` (sizes) left empty take any size.
 */
export const OPENAI_BUILTIN_ENTRIES: BuiltinEntry[] = builtinEntries(
  'openai',
  OPENAI_SIMULATOR_MODELS.map((id) => ({
    id,
    modes: ['text-to-video', 'image-to-video'],
    durations: { min: 1, max: OPENAI_MAX_SECONDS },
    defaultDuration: OPENAI_DEFAULT_SECONDS,
    resolutions: [],
    aspectRatios: [],
    audio: 'none',
  })),
  OPENAI_DEFAULT_PRICES,
);
