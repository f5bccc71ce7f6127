import type { Platform } from '../upstream/channel.entity';
import type { FamilyDefinition } from './family';
import { FAMILIES } from './family.registry';

/** The family of a platform (channels and tasks name it), or null for one no family speaks. */
export function familyOfPlatform(platform: Platform): FamilyDefinition | null {
  return FAMILIES.find((family) => family.platform === platform) ?? null;
}

/** The family that serves a public model, with the model's canonical id; null when none does. */
export function familyOfModel(name: string, families: readonly FamilyDefinition[] = FAMILIES): { family: FamilyDefinition; model: string } | null {
  for (const family of families) {
    const model = family.publicModel(name);
    if (model !== null) return { family, model };
  }
  return null;
}

export const FAMILY_PLATFORMS: readonly Platform[] = FAMILIES.map((family) => family.platform);
