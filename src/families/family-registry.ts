import { Inject, Injectable, OnModuleInit, type ModuleMetadata } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AppError, ErrorCode } from '../common/errors/app-error';
import type { Platform } from '../upstream/channel.entity';
import { ChannelSettingTraits } from '../upstream/channel-setting-traits';
import type { UpstreamAdapter } from '../upstream/upstream-adapter';
import { ALPHA_FAMILY } from './alpha/alpha.family';
import { BETA_FAMILY } from './beta/beta.family';
import type { ChannelSettingDefinition } from './channel-setting-definition';
import { COMMON_CHANNEL_SETTINGS } from './common-channel-settings';
import type { FamilyDefinition, FamilyDrafts } from './family';
import { GAMMA_FAMILY } from './gamma/gamma.family';
import { KLING_FAMILY } from './kling/kling.family';
import { ModelCatalog } from './model-catalog.service';
import { FAMILY_DEFINITIONS } from './family-definitions.token';
import { MINIMAX_FAMILY } from './minimax/minimax.family';
import { OPENAI_FAMILY } from './openai/openai.family';
import { VEO_FAMILY } from './veo/veo.family';
import { RUNWAY_FAMILY } from './runway/runway.family';
import { VIDU_FAMILY } from './vidu/vidu.family';
import { XAI_FAMILY } from './xai/xai.family';
import { SEEDANCE_FAMILY } from './seedance/seedance.family';
import { WAN_FAMILY } from './wan/wan.family';
import { FAL_FAMILY } from './fal/fal.family';
import { REPLICATE_FAMILY } from './replicate/replicate.family';

/** Every provider family the gateway speaks: adding one is its folder and one line here. */
export const FAMILIES: readonly FamilyDefinition[] = [
  ALPHA_FAMILY,
  BETA_FAMILY,
  GAMMA_FAMILY,
  OPENAI_FAMILY,
  KLING_FAMILY,
  VEO_FAMILY,
  MINIMAX_FAMILY,
  RUNWAY_FAMILY,
  VIDU_FAMILY,
  XAI_FAMILY,
  SEEDANCE_FAMILY,
  WAN_FAMILY,
  FAL_FAMILY,
  REPLICATE_FAMILY,
];

// The lookups below read FAMILIES where no injector is: module definitions, decorators and the channel input rules.

/** The family of a platform (channels and tasks name it), or null for one no family speaks. */
export function familyOfPlatform(platform: Platform): FamilyDefinition | null {
  return FAMILIES.find((family) => family.platform === platform) ?? null;
}

/** The family that serves a public model, with the model's canonical id; null when none does. */
export function familyOfModel(
  name: string,
  families: readonly FamilyDefinition[] = FAMILIES,
): { family: FamilyDefinition; model: string } | null {
  for (const family of families) {
    const model = family.publicModel(name);
    if (model !== null) return { family, model };
  }
  return null;
}

export const FAMILY_PLATFORMS: readonly Platform[] = FAMILIES.map((family) => family.platform);

/** Every setting a channel of `family` takes: every channel's, then the family's own. */
export function channelSettingsOf(family: FamilyDefinition): readonly ChannelSettingDefinition[] {
  return [...COMMON_CHANNEL_SETTINGS, ...family.settings];
}

export { FAMILY_DEFINITIONS };

/**
 * How a list of families is registered: each family's module, the list under FAMILY_DEFINITIONS,
 * and the registry built from it. FamiliesModule registers FAMILIES; service tests register a fake.
 */
export function familyRegistration(families: readonly FamilyDefinition[]): Required<Pick<ModuleMetadata, 'imports' | 'providers'>> {
  return {
    imports: families.map((family) => family.module),
    providers: [{ provide: FAMILY_DEFINITIONS, useValue: families }, FamilyRegistry, ModelCatalog],
  };
}

/**
 * What the surfaces and the task core ask of the provider families: a platform's family, its
 * request schema, its adapter. Built from the registered families at start. Which family serves a
 * model is the catalog's answer (ModelCatalog: the entry's routes).
 */
@Injectable()
export class FamilyRegistry implements OnModuleInit {
  private readonly drafts = new Map<Platform, FamilyDrafts>();
  private readonly adapters = new Map<Platform, UpstreamAdapter>();

  private assetModelList?: readonly string[];

  constructor(
    @Inject(FAMILY_DEFINITIONS) private readonly families: readonly FamilyDefinition[],
    private readonly moduleRef: ModuleRef,
    settingTraits: ChannelSettingTraits,
  ) {
    // Here rather than at init: known before any module's init or bootstrap reads or writes a channel.
    for (const family of families) {
      const settings = channelSettingsOf(family);
      settingTraits.declare(family.platform, {
        secret: settings.filter((setting) => setting.secret).map((setting) => setting.name),
        urls: settings.filter((setting) => setting.type === 'url').map((setting) => setting.name),
      });
    }
  }

  onModuleInit(): void {
    for (const family of this.families) {
      // Each family's own module provides them; strict: false looks beyond this module.
      this.drafts.set(family.platform, this.moduleRef.get(family.drafts, { strict: false }));
      this.adapters.set(family.platform, this.moduleRef.get(family.adapter, { strict: false }));
    }
  }

  /** The registered families, in registry order. */
  all(): readonly FamilyDefinition[] {
    return this.families;
  }

  /** The family of a platform, or null for one no registered family speaks. */
  ofPlatform(platform: Platform): FamilyDefinition | null {
    return this.families.find((family) => family.platform === platform) ?? null;
  }

  /** The public models of the families that take verified portrait assets (`asset://`). */
  assetModels(): readonly string[] {
    // Worked out once: every submit asks (the families and their models are fixed at start).
    this.assetModelList ??= this.families.filter((family) => family.takesVerifiedAssets).flatMap((family) => family.models);
    return this.assetModelList;
  }

  draftsOf(platform: Platform): FamilyDrafts {
    return this.drafts.get(platform) ?? unknownPlatform(platform);
  }

  /** 503 for a platform no family speaks (a channel or task left by a removed family). */
  adapter(platform: Platform): UpstreamAdapter {
    return this.adapters.get(platform) ?? unknownPlatform(platform);
  }

  findAdapter(platform: Platform): UpstreamAdapter | null {
    return this.adapters.get(platform) ?? null;
  }
}

function unknownPlatform(platform: Platform): never {
  throw new AppError(ErrorCode.ServiceUnavailable, `no upstream adapter for platform ${platform}`);
}
