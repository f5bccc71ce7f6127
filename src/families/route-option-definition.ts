import type { LocalizedText } from './channel-setting-definition';

/**
 * How the console's model form draws one of a platform's route options (`routes[].options.<name>`):
 * `boolean` a switch; `choice` one of `choices`; `list` several of `choices` (or whole numbers when
 * it has none); `text` a line of text; `input_map` the hosted platforms' field map, proposed from the
 * endpoint's published schema. The family's `checkRouteOptions` stays the rule; this is its form.
 */
export interface RouteOptionDefinition {
  readonly name: string;
  readonly kind: 'boolean' | 'choice' | 'list' | 'text' | 'input_map';
  readonly choices?: readonly string[];
  readonly label: LocalizedText;
  readonly description: LocalizedText;
}

/** A route option's definition from its words: `[English, Chinese]` for its label and its one line of help. */
export function routeOption(
  name: string,
  kind: RouteOptionDefinition['kind'],
  [labelEn, labelZh]: readonly [string, string],
  [helpEn, helpZh]: readonly [string, string],
  choices?: readonly string[],
): RouteOptionDefinition {
  return {
    name,
    kind,
    ...(choices ? { choices } : {}),
    label: { en: labelEn, 'zh-CN': labelZh },
    description: { en: helpEn, 'zh-CN': helpZh },
  };
}
