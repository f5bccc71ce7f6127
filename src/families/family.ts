import type { RouteOptionDefinition } from './route-option-definition';
import type { Type } from '@nestjs/common';
import type { DefaultPrice } from '../billing/default-prices';
import type { BuiltinEntry, CatalogEntry, CatalogRoute, ModelCapabilities } from '../catalog/catalog-entry';
import type { Caller } from '../auth/caller';
import type { QuoteRequest } from '../billing/pricing.service';
import type { ModelMode } from '../catalog/catalog-entry';
import type { ChannelSettings, Platform } from '../upstream/channel.entity';
import type { ProviderOwnFailure } from '../upstream/provider-own-failure';
import type { UpstreamAdapter } from '../upstream/upstream-adapter';
import type { StoredRequest } from '../upstream/upstream-task';
import type { ChannelSettingDefinition, LocalizedText } from './channel-setting-definition';

/** The two submit forms: `flat` on /v1/videos (OpenAI-style, JSON or multipart), `unified` on /v1/video/generations. */
export type SubmitForm = 'flat' | 'unified';

/** A file part of a multipart submit. */
export interface UploadedPart {
  buffer: Buffer;
  originalname?: string;
  mimetype?: string;
}

/**
 * A submit body as a surface hands it over, once the form's own spellings were resolved. A family
 * reads (and names in its errors) `duration` only: OpenAI's `seconds` is the submit pipeline's.
 */
export interface SubmitInput {
  form: SubmitForm;
  body: Record<string, unknown>;
  /** The `input_reference` file part of a multipart submit. */
  inputReferenceFile?: UploadedPart;
  /** What the family changed in an accepted request, said in the response (X-Gateway-Warning). */
  warnings?: string[];
  /** Set by the submit pipeline for a deprecated model: its answer carries Deprecation and Sunset headers. */
  deprecated?: { sunsetAt: number | null; replacement: string | null };
}

/** A validated request as its family made it (the submit adds the route, the key and the hops). `R`: the family's request type. */
export interface FamilyTaskDraft<R extends StoredRequest = StoredRequest> {
  platform: Platform;
  model: string;
  action: string;
  /** What the family adapter needs to build the upstream call (the adapter reads it as the same type). */
  request: R;
  properties?: Record<string, unknown>;
  quote: Omit<QuoteRequest, 'group'>;
  /** The pixel size asked for (`<w>x<h>`): the task's `size` until the provider reports the one it made. */
  size?: string;
  /** How the task is made, in the catalog's vocabulary (checked against the entry's modes; picks a route's id by mode). */
  mode?: ModelMode;
  /** Only these channels may run the task (e.g. the provider account holding its verified assets). */
  channelIds?: number[];
}

/** What a family makes of a body: the task to price and send, and what to let go of once the submit is over. */
export interface FamilyDraft<R extends StoredRequest = StoredRequest> {
  draft: FamilyTaskDraft<R>;
  release?: () => void;
}

/** A family's request schema: a body becomes a task draft, or a 400 naming the field; nothing is charged yet. */
export interface FamilyDrafts<R extends StoredRequest = StoredRequest> {
  /**
   * `model` is the catalog entry's id; the key allowlist was already checked. `model` describes the
   * entry and its route on this family's platform: what the request is checked against.
   */
  prepare(model: string, input: SubmitInput, caller: Caller, catalog: CatalogModel): Promise<FamilyDraft<R>>;
}

/** The catalog entry a submit names, and its route on the family's platform. */
export interface CatalogModel {
  entry: CatalogEntry;
  route: CatalogRoute;
}

/** An example request body, shown (and pre-filled) by Swagger; each one is accepted by the simulator with the defaults. */
export interface RequestExample {
  summary: string;
  value: Record<string, unknown>;
}

/** A family's request schema as Swagger documents it: the class its bodies are validated with, and examples per form. */
export interface FamilyRequestSchema {
  readonly schema: Type<object>;
  /** By name, in the order shown: the first one of the first family of a form is what "Try it out" starts with. */
  readonly examples: Partial<Record<SubmitForm, Record<string, RequestExample>>>;
}

/** What a family's channel keys look like: `description` completes "api_key must be ..." in the 400. */

/** The family's embedded fake upstream, mounted under /simulator/<platform> with SIMULATOR=on. */
export interface FamilySimulator {
  module: Type<unknown>;
  /** The seeded channel's api_key, when the simulator's provider writes it otherwise than `simulator-key`. */
  apiKey?: string;
  /** Settings of the seeded channel besides the poll interval; `root` is the simulator's base URL. */
  channelSettings?(root: string): ChannelSettings;
}

/** What a provider's API key looks like: the rule and how it is shown (`<access_key>:<secret_key>`). */
export interface ApiKeyFormat {
  readonly pattern: RegExp;
  /** What its keys look like, as the console's placeholder and GET /api/admin/platforms show it (`<access_key>:<secret_key>`). */
  readonly shape: string;
  /** The 400's words when a key does not match, where the shape alone would not say it. */
  readonly description?: string;
}

/** A key pasted whole: one token, no spaces (not `Bearer sk-...`, not two keys). */
export function singleTokenKey(shape: string): ApiKeyFormat {
  return { pattern: /^\S+$/, shape };
}

/**
 * A family whose public models are a fixed list of names: `models`, `publicModel` and, with
 * `anyCase`, the `modelIdKey` that matches them in any case (the name a client sends is lowered).
 */
export function namedModels(
  names: Iterable<string>,
  options: { anyCase?: boolean } = {},
): Pick<FamilyDefinition, 'models' | 'publicModel' | 'modelIdKey'> {
  const known = new Set(names);
  const key = options.anyCase ? (name: string) => name.toLowerCase() : (name: string) => name;
  return {
    models: [...known],
    publicModel: (name) => (known.has(key(name)) ? key(name) : null),
    ...(options.anyCase ? { modelIdKey: key } : {}),
  };
}

/** The route-options schema of a family whose routes take no options (`aProvider`: "an xAI"): any option is refused, named. */
export function noRouteOptions(aProvider: string): NonNullable<FamilyDefinition['checkRouteOptions']> {
  return (options) => {
    const key = Object.keys(options)[0];
    return key === undefined ? null : { field: key, message: `${key} is not ${aProvider} route option (it takes none)` };
  };
}

/**
 * A family that takes one route option (`option`, accepted when `valid`): the option as the console draws it,
 * and its schema, which refuses any other option as not the family's and a bad value with `message`.
 */
export function oneRouteOption(
  provider: string,
  option: RouteOptionDefinition,
  valid: (value: unknown) => boolean,
  message: string,
): Required<Pick<FamilyDefinition, 'routeOptions' | 'checkRouteOptions'>> {
  const { name } = option;
  return {
    routeOptions: [option],
    checkRouteOptions: (options) => {
      const refused = Object.entries(options).find(([key, value]) => key !== name || !valid(value));
      if (!refused) return null;
      return refused[0] === name
        ? { field: name, message }
        : { field: refused[0], message: `${refused[0]} is not a ${provider} route option (${name} is)` };
    },
  };
}

/**
 * One provider family: all the rest of the gateway may know of it. Static facts are plain fields;
 * the request schema and the adapter are Nest providers of `module`, looked up by FamilyRegistry.
 * `R` is the family's request: its drafts write it and its adapter reads it, so the two cannot disagree.
 */
export interface FamilyDefinition<R extends StoredRequest = StoredRequest> {
  /** The channels' `platform` and the tasks' `platform`. */
  readonly platform: Platform;
  /** The provider's key as a channel's `api_key` holds it: checked where a channel is saved (400 naming `api_key`). */
  readonly apiKeyFormat?: ApiKeyFormat;
  /** How the console and GET /api/admin/platforms name it, in each console language. */
  readonly label: LocalizedText;
  /**
   * The channel settings of its own (besides every channel's poll_interval_ms and max_concurrency):
   * validated where a channel is saved, listed by GET /api/admin/platforms, drawn by the console's form.
   */
  readonly settings: readonly ChannelSettingDefinition[];
  /** The provider's public API host, what a channel's `base_url` usually is (the console's channel form fills it in). */
  readonly defaultBaseUrl?: string;
  /** Keys of a multipart submit's `metadata` that arrive as strings and are numbers or booleans for this family. */
  readonly multipartMetadata?: { readonly numbers?: readonly string[]; readonly booleans?: readonly string[] };
  /** Its public models (a seeded simulator channel serves them); with `modelsFromChannels`, only what that channel lists. */
  readonly models: readonly string[];
  /** The canonical public id `name` denotes in this family, or null when it is not one of its models. */
  publicModel(name: string): string | null;
  /**
   * Its public models are whatever the operator lists on its channels (no fixed list): a name no
   * family's `publicModel` claims is looked up on the enabled channels of such families.
   */
  readonly modelsFromChannels?: boolean;
  /**
   * With `modelsFromChannels`: what a model its channels listed before the catalog existed is
   * adopted as, over its first builtin entry's capabilities (what the family took for that name then).
   */
  channelModelCapabilities?(model: string): Partial<ModelCapabilities>;
  /** How its public ids begin, which a channel's `models` must respect; absent: any name (models listed by the operator). */
  readonly modelPrefix?: string;
  /** The submit forms that take its bodies. */
  readonly forms: readonly SubmitForm[];
  /** Whether its requests may reference verified portrait assets (`asset://<id>`). */
  readonly takesVerifiedAssets?: boolean;
  /** Its list prices, which its builtin entries carry. */
  readonly defaultPrices: readonly DefaultPrice[];
  /** Its builtin catalog entries (data in its folder), merged into the catalog at start. */
  readonly builtinEntries: readonly BuiltinEntry[];
  /**
   * How a model id routed on its platform compares with a name a client sends (both go through it):
   * absent, byte for byte; `(name) => name.toLowerCase()` for ids matched in any case.
   */
  readonly modelIdKey?: (name: string) => string;
  /** Its route options as the console's model form draws them (absent: it takes none). */
  readonly routeOptions?: readonly RouteOptionDefinition[];
  /** Its route options' schema: the first option it refuses (`field` is the option's name), or null. */
  checkRouteOptions?(options: Readonly<Record<string, unknown>>): { field: string; message: string } | null;
  /** Its request schema, for the API documentation (its `drafts` validate with the same class). */
  readonly request: FamilyRequestSchema;
  /** The Nest module that provides (and exports) `drafts` and `adapter`. */
  readonly module: Type<unknown>;
  readonly drafts: Type<FamilyDrafts<R>>;
  readonly adapter: Type<UpstreamAdapter<R>>;
  readonly simulator?: FamilySimulator;
  /**
   * Which failures of an accepted task are its provider's own (an internal error, a timeout upstream;
   * never moderation or bad input), read from the stored reason: such a task is submitted once more on
   * another channel (TASK_PROVIDER_RETRIES). Absent: none is (the provider names no such code).
   */
  readonly providerOwnFailure?: ProviderOwnFailure;
  /** Rules across a channel's settings for this platform (after a PATCH is merged); a 400 naming the field. */
  assertChannelSettings?(settings: ChannelSettings): void;
}
