import type { CatalogRoute } from '../../catalog/catalog-entry';
import { checkInputMap, InputMap, inputMapOf, OptionProblem } from './input-map';
import { outputPathProblem } from './output-path';

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
