import { type FamilyDefinition, namedModels } from '../family';
import type { BuiltinModel } from './builtin-entry';
import { defineFamily, type FamilyParts } from './define-family';
import type { HostedTaskRequest } from './hosted-request-rules';
import { checkHostedRouteOptions, HOSTED_ROUTE_OPTIONS } from './hosted-route';

/** What a hosted platform's folder writes of its family: all but its models and its route options, which are alike. */
export type HostedFamilyParts = Omit<FamilyParts<HostedTaskRequest>, 'models' | 'publicModel' | 'checkRouteOptions' | 'routeOptions'>;

/**
 * A hosted-model platform's family (fal, Replicate): one protocol for every model, so its public
 * models are its builtin models' ids and its routes take the hosted options (`input_map`, `output`).
 */
export function defineHostedFamily(models: readonly BuiltinModel[], parts: HostedFamilyParts): FamilyDefinition<HostedTaskRequest> {
  return defineFamily({
    ...parts,
    ...namedModels(models.map((model) => model.id)),
    checkRouteOptions: checkHostedRouteOptions,
    routeOptions: HOSTED_ROUTE_OPTIONS,
  });
}
