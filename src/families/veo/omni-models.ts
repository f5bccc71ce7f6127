/**
 * Gemini Omni on the Gemini API's Interactions API (wire notes section 5; python-genai's
 * `VideoResponseFormat`): the data its catalog entries are made from (veo-catalog.ts). The rules
 * read the entry, never this table.
 */
export interface OmniBuiltinModel {
  /** Google's id, the route's `upstream_model`. */
  upstreamModel: string;
  label: string;
  releasedAt?: string;
  durations: readonly number[];
  defaultDuration: number;
  /** The first is the default. */
  resolutions: readonly string[];
  /** Two images as first and last frame (`video_config.task: image_to_video`). */
  lastFrame: boolean;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

/**
 * `gemini-omni-flash`: Google's GA Omni Flash (`gemini-omni-1.1-flash`, 2026-08-27; the preview id
 * was shut down on 2026-09-30), one entry with Runway's `gemini_omni_flash` route, so only what both
 * serve: 3 to 10 s at 720p, text or a first frame. `gemini-omni-1.2-flash`: 360p to 4k (1080p and 4k
 * upscaled), up to 15 s, first and last frames; the Gemini API only.
 */
export const OMNI_MODELS: Readonly<Record<string, OmniBuiltinModel>> = {
  'gemini-omni-flash': {
    upstreamModel: 'gemini-omni-1.1-flash',
    label: 'Gemini Omni Flash',
    releasedAt: '2026-08-27',
    durations: range(3, 10),
    defaultDuration: 8,
    resolutions: ['720p'],
    lastFrame: false,
  },
  'gemini-omni-1.2-flash': {
    upstreamModel: 'gemini-omni-1.2-flash',
    label: 'Gemini Omni 1.2 Flash',
    durations: range(3, 15),
    defaultDuration: 8,
    resolutions: ['720p', '360p', '1080p', '4k'],
    lastFrame: true,
  },
};

/** Google's Omni ids speak the Interactions API; every other id of a `veo` route is a Veo model (predictLongRunning). */
export const isInteractionsModel = (upstreamModel: string): boolean => /^gemini-/i.test(upstreamModel);
