import { routeOption, type RouteOptionDefinition } from '../route-option-definition';
import { RUNWAY_RATIO_BY_ASPECT } from './runway-models';

/**
 * Runway's own route options (a catalog entry's `routes[].options` on platform `runway`): how a
 * model speaks Runway's API beyond what the entry says.
 */
export interface RunwayRouteOptions {
  /** The model speaks Runway's Veo dialect: `negative_prompt`, a last frame (`position: "last"`) and `metadata.audio`. */
  veo?: boolean;
  /** The aspect ratios its text_to_video makes, when fewer than the entry's (gen4.5: 16:9 and 9:16); absent, all of them. */
  text_aspect_ratios?: string[];
}

const KNOWN_ASPECTS = [...new Set(Object.values(RUNWAY_RATIO_BY_ASPECT).flatMap((byAspect) => Object.keys(byAspect)))];

/** The console's form of Runway's route options. */
export const RUNWAY_ROUTE_OPTIONS: readonly RouteOptionDefinition[] = [
  routeOption(
    'veo',
    'boolean',
    ["Speaks Runway's Veo dialect", '使用 Runway 的 Veo 写法'],
    [
      'negative_prompt, a last frame and metadata.audio, as Runway takes them for Veo.',
      'negative_prompt、尾帧与 metadata.audio，按 Runway 对 Veo 的要求发送。',
    ],
  ),
  routeOption(
    'text_aspect_ratios',
    'list',
    ['Text-to-video aspect ratios', '文生视频宽高比'],
    [
      "The ratios its text-to-video makes, when fewer than the model's; none ticked: all of them.",
      '文生视频支持的宽高比（少于模型的时填写）；都不勾选：全部。',
    ],
    KNOWN_ASPECTS,
  ),
];

/** The first option Runway's schema refuses (`field` is the option's name), or null. */
export function checkRunwayRouteOptions(options: Readonly<Record<string, unknown>>): { field: string; message: string } | null {
  for (const [key, value] of Object.entries(options)) {
    if (key === 'veo') {
      if (typeof value !== 'boolean') return { field: key, message: 'veo must be true or false' };
    } else if (key === 'text_aspect_ratios') {
      if (!Array.isArray(value) || value.length === 0 || value.some((aspect) => !KNOWN_ASPECTS.includes(aspect as string)))
        return { field: key, message: `text_aspect_ratios must be a list of ${KNOWN_ASPECTS.join(', ')}` };
    } else {
      return { field: key, message: `${key} is not a Runway route option (veo and text_aspect_ratios are)` };
    }
  }
  return null;
}
