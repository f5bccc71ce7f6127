/** A text in each language the console speaks. */
export interface LocalizedText {
  readonly en: string;
  readonly 'zh-CN': string;
}

/**
 * `url`: an http(s) URL that must point at a public host (unless MEDIA_ALLOW_PRIVATE_HOSTS), like base_url.
 * `number`: any finite number (a price), within `min` and `max`.
 * `boolean`: true or false (a switch, such as `push`).
 */
export type ChannelSettingType = 'string' | 'integer' | 'number' | 'url' | 'boolean';

/** One channel setting a family takes: how it is validated, stored, shown and drawn in the console's form. */
export interface ChannelSettingDefinition {
  /** The key under the channel's `settings`. */
  readonly name: string;
  readonly type: ChannelSettingType;
  /** What applies when the channel leaves it out (null: nothing, or a default the adapter decides). */
  readonly default: string | number | null;
  /** A channel of the family is refused without it. */
  readonly required: boolean;
  /** Stored encrypted like api_key, shown as `***`, never echoed; the console's field is write-only. */
  readonly secret: boolean;
  /** The form field's label. */
  readonly label: LocalizedText;
  /** One line of help: what it is for, what leaving it empty means. */
  readonly description: LocalizedText;
  /** Bounds: a number's value (integer, number), a text's length (string, url). */
  readonly min?: number;
  readonly max?: number;
}
