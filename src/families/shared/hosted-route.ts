import type { CatalogRoute } from '../../catalog/catalog-entry';
import { checkInputMap, InputMap, inputMapOf, OptionProblem } from './input-map';
import { outputPathProblem } from './output-path';
import { routeOption, type RouteOptionDefinition } from '../route-option-definition';

/**
 * The route options of a hosted-model platform (fal, Replicate): `input_map` (required: a model
 * takes only the fields it names) and `output` (where the video URL is, when not the platform's
 * usual place). The families' `checkRouteOptions`.
 */
export function checkHostedRouteOptions(options: Readonly<Record<string, unknown>>): OptionProblem | null {
  const extra = Object.keys(options).find((name) => !['input_map', 'output', 'resolution'].includes(name));
  if (extra) return { field: extra, message: `${extra} is not a route option of this platform (input_map, output and resolution are)` };
  if (options.resolution !== undefined && (typeof options.resolution !== 'string' || !/^\w{1,16}$/.test(options.resolution)))
    return { field: 'resolution', message: 'resolution must be one resolution, such as 1080p (the only one the endpoint makes)' };
  if (options.input_map === undefined)
    return { field: 'input_map', message: 'input_map is required: it names the input field of each gateway field the model takes' };
  const problem = checkInputMap(options.input_map);
  if (problem) return problem;
  if (options.output !== undefined) {
    const outputProblem = outputPathProblem(options.output);
    if (outputProblem) return { field: 'output', message: `output ${outputProblem}` };
  }
  return null;
}

/** The console's form of a hosted route's options. */
export const HOSTED_ROUTE_OPTIONS: readonly RouteOptionDefinition[] = [
  routeOption(
    'input_map',
    'input_map',
    ['Input map', '输入映射'],
    [
      "Which input field of the endpoint takes each gateway field (read the endpoint's schema to propose it).",
      '每个网关字段写入端点的哪个输入字段（可读取端点的 schema 自动建议）。',
    ],
  ),
  routeOption(
    'output',
    'text',
    ['Output path', '输出路径'],
    [
      "Where the answer holds the video URL (e.g. videos[0].url); empty: the platform's usual place.",
      '结果中视频地址的位置（如 videos[0].url）；留空：平台的默认位置。',
    ],
  ),
  routeOption(
    'resolution',
    'text',
    ['Only resolution', '唯一分辨率'],
    ["The one resolution the endpoint makes (e.g. 1080p); empty: the model's.", '端点唯一生成的分辨率（如 1080p）；留空：按模型。'],
  ),
];

/** A hosted route as the drafts read it: its input map, and where its answers hold the video URL. */
export interface HostedRoute {
  inputMap: InputMap;
  /** The route's `output`, or the platform's usual place. */
  output: string;
  /** The one resolution the endpoint makes (it takes none): on this route the entry offers only it. */
  resolution?: string;
}

export function hostedRouteOf(route: CatalogRoute, usualOutput: string): HostedRoute {
  const output = route.options?.output;
  return {
    inputMap: inputMapOf(route.options?.input_map),
    output: typeof output === 'string' && outputPathProblem(output) === null ? output : usualOutput,
    ...(typeof route.options?.resolution === 'string' ? { resolution: route.options.resolution.toLowerCase() } : {}),
  };
}
