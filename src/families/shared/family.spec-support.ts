import { HttpService } from '@nestjs/axios';
import type { BuiltinEntry, CatalogEntry } from '../../catalog/catalog-entry';
import type { AppError } from '../../common/errors/app-error';
import type { AppConfig } from '../../config/app-config';
import type { ChannelEntity, Platform } from '../../upstream/channel.entity';
import { ProviderCalls } from '../../upstream/provider-calls';
import type { UpstreamTask } from '../../upstream/upstream-task';
import type { SourceVideo } from '../family';
import type { HostedTaskRequest } from './hosted-request-rules';
import { StagedImageInputs } from './staged-image-inputs.service';
import { UrlOrInlineImages } from './url-or-inline-images.service';

/** What the family specs share (never imported by the gateway itself; the build leaves `*.spec-support.ts` out). */

/** A builtin entry as the catalog serves it, with the changes an operator made. */
export function builtinEntry(entries: readonly BuiltinEntry[], id: string, changes: Partial<CatalogEntry> = {}): CatalogEntry {
  return { ...entries.find((candidate) => candidate.id === id)!, source: 'builtin', modified: false, ...changes };
}

/** An operator's own catalog entry: `base` under a new id, with these changes. */
export function customEntry(base: CatalogEntry, id: string, changes: Partial<CatalogEntry> = {}): CatalogEntry {
  return { ...base, id, source: 'custom', ...changes };
}

/** A builtin model's catalog entry and its first route, as the submit pipeline hands them over. */
export function builtinCatalogModel(entries: readonly BuiltinEntry[], id: string, changes: Partial<CatalogEntry> = {}) {
  const entry = builtinEntry(entries, id, changes);
  return { entry, route: entry.routes[0] };
}

/** What a rule makes of a body: `accepted`, or its refusal as `<param>: <message>`. */
export function refusalOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return `${(error as AppError).options.param}: ${(error as Error).message}`;
  }
  return 'accepted';
}

/**
 * A test of each case a family's rules refuse: `run` applies the rules to a model and a body, and
 * each case names the refusal it must end in (`<param>: <message>`).
 */
export function itRefusesNamingTheField(
  cases: Array<[model: string, body: object, refusal: string]>,
  run: (model: string, body: object) => unknown,
) {
  it.each(cases)('%s, case %#: refused naming the field', (model, body, expected) => {
    expect(refusalOf(() => run(model, body))).toBe(expected);
  });
}

/** What a rule makes of a body: `accepted`, or the field its refusal names (its message when it names none). */
export function refusedField(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as AppError).options.param ?? (error as Error).message;
  }
  return 'accepted';
}

/** Tasks of `request` on `upstreamModel`, not yet submitted (`fields` says otherwise). */
export function upstreamTasks<R>(request: R, upstreamModel: string) {
  return (fields: Partial<UpstreamTask<R>> = {}): UpstreamTask<R> => ({
    taskId: 'task_1',
    request,
    upstreamModel,
    upstreamTaskId: null,
    gatewayHops: 0,
    createdAt: 0,
    submitTime: null,
    ...fields,
  });
}

/**
 * Tasks submitted with `submit` (an adapter's submit on a channel): the task `fields` describe, with
 * the upstream id the submit answered.
 */
export function submittedTasks<R>(
  task: (fields?: Partial<UpstreamTask<R>>) => UpstreamTask<R>,
  submit: (task: UpstreamTask<R>) => Promise<{ upstreamTaskId: string }>,
) {
  return async (fields: Partial<UpstreamTask<R>> = {}) => {
    const base = task(fields);
    const { upstreamTaskId } = await submit(base);
    return { ...base, upstreamTaskId };
  };
}

/** A hosted platform's requests (fal, Replicate): text-to-video of this input, no images, the video at `output`; `fields` say otherwise. */
export function hostedRequests(input: Record<string, unknown>, output: string) {
  return (fields: Partial<HostedTaskRequest> = {}): HostedTaskRequest => ({
    mode: 'text-to-video',
    input: { ...input },
    images: {},
    output,
    ...fields,
  });
}

/** An adapter's calls over real HTTP (to an emulator on loopback), on a clock at 0. */
export function loopbackCalls(config: AppConfig, http = new HttpService()): ProviderCalls {
  return new ProviderCalls(http, { now: () => 0 }, config);
}

/** What an adapter that sends images as URLs or inline data is made of (Vidu's, xAI's): its calls and its image inputs over loopback, on one HTTP client. */
export function loopbackUrlOrInlineImages(config: AppConfig): [ProviderCalls, UrlOrInlineImages] {
  const http = new HttpService();
  return [loopbackCalls(config, http), new UrlOrInlineImages(new StagedImageInputs(http, config), config)];
}

/** A channel of `platform` on an emulator, with the emulator's key. */
export function emulatorChannel(platform: Platform, emulator: { url: string; apiKey: string }): ChannelEntity {
  return { id: 1, platform, baseUrl: emulator.url, apiKey: emulator.apiKey, settings: {} } as unknown as ChannelEntity;
}

/** The gateway's signed link to a stored video, as a source's `url`. */
export const SOURCE_LINK = 'https://gw.example/v1/videos/task_a/content?expires=1&signature=ab';

/** A finished task's stored video as a remix's source: a 6 s edit of `task_a` at 480p, with `changes`. */
export const sourceVideo = (changes: Partial<SourceVideo> = {}): SourceVideo => ({
  taskId: 'task_a',
  field: 'metadata.source_task_id',
  mode: 'video-edit',
  url: SOURCE_LINK,
  seconds: 6,
  size: null,
  resolution: '480p',
  ...changes,
});
