import type { StoredRequest } from '../../upstream/upstream-task';
import type { FamilyDefinition, SubmitForm } from '../family';

/** What a family takes unless its folder says otherwise: both submit forms. */
const BOTH_FORMS: readonly SubmitForm[] = ['flat', 'unified'];

/** The definition's fields a family's folder writes grouped (`catalog`, `nest`) or may leave out (`settings`, `forms`). */
type GroupedOrDefault = 'settings' | 'forms' | 'defaultPrices' | 'builtinEntries' | 'module' | 'drafts' | 'adapter';

/**
 * A family as its folder writes it: its FamilyDefinition's fields, with what belongs together
 * grouped and what most families share left to the defaults. The rest of the gateway reads the
 * flat definition that defineFamily makes of it.
 */
export interface FamilyParts<R extends StoredRequest> extends Omit<FamilyDefinition<R>, GroupedOrDefault> {
  /** Its own channel settings; absent: none (every channel's settings still apply). */
  readonly settings?: FamilyDefinition<R>['settings'];
  /** Absent: both forms. */
  readonly forms?: FamilyDefinition<R>['forms'];
  /** Its list prices, and the builtin catalog entries that carry them. */
  readonly catalog: Pick<FamilyDefinition<R>, 'defaultPrices' | 'builtinEntries'>;
  /** Its Nest module and the two providers of it that the registry looks up, which share the request type `R`. */
  readonly nest: Pick<FamilyDefinition<R>, 'module' | 'drafts' | 'adapter'>;
}

/** The definition the rest of the gateway reads, from a family's parts. */
export function defineFamily<R extends StoredRequest>({ catalog, nest, ...own }: FamilyParts<R>): FamilyDefinition<R> {
  return { settings: [], forms: BOTH_FORMS, ...own, ...catalog, ...nest };
}
