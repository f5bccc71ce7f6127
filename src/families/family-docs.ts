import { cancellableStates } from '../upstream/upstream-adapter';
import type { FamilyDefinition, SubmitForm } from './family';
import { FAMILIES } from './family-registry';
import { codeList } from './shared/code-list';

// What the API documentation says of the families, computed from FAMILIES at import (Swagger's
// decorators run then, before any injector): a family added or changed is documented with no other edit.

/** The families whose bodies `form` takes, in registry order. */
export function familiesOf(form: SubmitForm, families: readonly FamilyDefinition[] = FAMILIES): FamilyDefinition[] {
  return families.filter((family) => family.forms.includes(form));
}

/** `a, b and c` (or `a, b or c`) of the families' English labels. */
export function familyNames(families: readonly FamilyDefinition[], conjunction: 'and' | 'or' = 'and'): string {
  const labels = families.map((family) => family.label.en);
  return labels.length < 2 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} ${conjunction} ${labels[labels.length - 1]}`;
}

/** Each family's public models, one family after the other (`Kling: \`kling-v2-6\`, ...; Runway: ...`). */
export function modelsByFamily(families: readonly FamilyDefinition[]): string {
  return families
    .map((family) => {
      const models = codeList(family.models);
      return family.modelsFromChannels
        ? `${family.label.en}: the models its channels list (the simulator's: ${models})`
        : `${family.label.en}: ${models}`;
    })
    .join('; ');
}

/** What the cancel routes say of each family's provider: the tasks it stops, and the ones it cannot. */
export function cancelCapabilities(families: readonly FamilyDefinition[] = FAMILIES): { stops: string; cannot: string } {
  const stops: string[] = [];
  const never: FamilyDefinition[] = [];
  const partly: string[] = [];
  for (const family of families) {
    const states = cancellableStates(family.adapter);
    if (states.length === 0) never.push(family);
    else if (states.includes('queued') && states.includes('running')) stops.push(`a ${family.label.en} task not finished upstream`);
    else {
      stops.push(`a ${family.label.en} task still ${states.join(' or ')} upstream`);
      partly.push(`${family.label.en} while ${states.includes('queued') ? 'running' : 'queued'}`);
    }
  }
  const cannot = [never.length > 0 ? `never: ${familyNames(never)}` : '', partly.length > 0 ? `not ${partly.join(', ')}` : '']
    .filter(Boolean)
    .join('; ');
  return { stops: stops.join('; '), cannot };
}
