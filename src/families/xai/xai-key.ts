import type { ApiKeyFormat } from '../family';

/** xAI's API keys (console.x.ai): `xai-` and letters and digits; the simulator's key is one too. */
export const XAI_API_KEY_FORMAT: ApiKeyFormat = {
  pattern: /^xai-[A-Za-z0-9]{16,200}$/,
  shape: 'xai-…',
  description: 'an xAI API key: "xai-" followed by letters and digits (as console.x.ai shows it)',
};
export const XAI_SIMULATOR_KEY = 'xai-simulatorKey0000000000000000';
