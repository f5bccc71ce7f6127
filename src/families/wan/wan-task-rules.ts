import { routeOption } from '../route-option-definition';
import { AppError } from '../../common/errors/app-error';
import { oneRouteOption, type CatalogModel } from '../family';
import { clientMetadata } from '../shared/entry-rules';
import { HostedSettled, settleHostedRequest } from '../shared/hosted-request-rules';
import { WAN_GATEWAY_PARAMETERS, WAN_PROTOCOLS, wanProtocolOf, type WanProtocol } from './wan-models';
import { wanInputMap } from './wan-protocol';
import type { WanVideoRequestDto } from './wan-request.dto';

/** A Wan request settled against its model: its wire, the shared fields as that wire names them, and the client's `parameters`. */
export interface WanSettled extends HostedSettled {
  protocol: WanProtocol;
  extra: Record<string, unknown>;
}

/** The route's wire: its `protocol` option, else what its upstream id speaks (wan2.6 and before legacy, the rest media). */
export function wanRouteProtocol(route: CatalogModel['route']): WanProtocol {
  const chosen = route.options?.protocol;
  if (WAN_PROTOCOLS.includes(chosen as WanProtocol)) return chosen as WanProtocol;
  const upstream = typeof route.upstreamModel === 'string' ? route.upstreamModel : Object.values(route.upstreamModel)[0];
  return wanProtocolOf(upstream ?? '');
}

/**
 * A Wan model's rules, before any charge, each a 400 naming the field the client sent: the entry's
 * modes, lengths, resolutions, aspect ratios, audio and prompt length (the shared hosted rules), over
 * what the route's wire takes (wanInputMap: no aspect ratio with a first frame, `audio` only on the
 * legacy wire, `last_frame` only on the media one); then `metadata`, which may not set what the
 * gateway sets. `hasFile`: the first frame came as a multipart file part.
 */
export function settleWanRequest(model: string, catalog: CatalogModel, body: WanVideoRequestDto, hasFile: boolean): WanSettled {
  if (catalog.entry.modes.every((mode) => mode === 'video-edit'))
    throw AppError.invalid(
      `${model} edits a video: name a completed task of yours in metadata.source_task_id (or POST /v1/videos/{id}/remix)`,
      'metadata.source_task_id',
    );
  const protocol = wanRouteProtocol(catalog.route);
  const withImage = hasFile || body.input_reference !== undefined;
  const settled = settleHostedRequest(model, catalog, { inputMap: wanInputMap(protocol, withImage), output: '' }, body, hasFile);
  const extra = clientMetadata(body.metadata, WAN_GATEWAY_PARAMETERS);
  return { ...settled, protocol, extra };
}

/** The route's one option, `protocol` (`legacy` or `media`); any other is refused where the entry is saved. */
export const WAN_ROUTE_OPTIONS = oneRouteOption(
  'Wan',
  routeOption(
    'protocol',
    'choice',
    ['Wire', '协议'],
    [
      'legacy (wan2.1 to 2.6: img_url, size) or media (wan2.7 and later: media[], ratio); empty: the upstream id decides.',
      'legacy（wan2.1 至 2.6：img_url、size）或 media（wan2.7 及以后：media[]、ratio）；留空：按上游模型 ID 判断。',
    ],
    WAN_PROTOCOLS,
  ),
  (value) => WAN_PROTOCOLS.includes(value as WanProtocol),
  'protocol must be "legacy" or "media"',
);
