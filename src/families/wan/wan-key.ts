import type { ApiKeyFormat } from '../family';

/** DashScope's API keys (Model Studio console -> API Key): `sk-` and letters and digits; the simulator's key is one too. */
export const WAN_API_KEY_FORMAT: ApiKeyFormat = {
  pattern: /^sk-[A-Za-z0-9_-]{8,200}$/,
  shape: 'sk-…',
  description: 'a DashScope API key: "sk-" followed by letters and digits, of the region of the base_url (no "Bearer " before it)',
};
export const WAN_SIMULATOR_KEY = 'sk-simulatorKey00000000000000000';
