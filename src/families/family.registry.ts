import { ALPHA_FAMILY } from './alpha/alpha.family';
import { BETA_FAMILY } from './beta/beta.family';
import type { FamilyDefinition } from './family';
import { GAMMA_FAMILY } from './gamma/gamma.family';
import { OPENAI_FAMILY } from './openai/openai.family';

/** Every provider family the gateway speaks: adding one is its folder and one line here. */
export const FAMILIES: readonly FamilyDefinition[] = [
  ALPHA_FAMILY,
  BETA_FAMILY,
  GAMMA_FAMILY,
  OPENAI_FAMILY,
];
