import { HttpService } from '@nestjs/axios';
import type { BuiltinEntry, CatalogEntry } from '../../catalog/catalog-entry';
import type { AppError } from '../../common/errors/app-error';
import type { AppConfig } from '../../config/app-config';
import type { ChannelEntity, Platform } from '../../upstream/channel.entity';
import { ProviderCalls } from '../../upstream/provider-calls';
import type { UpstreamTask } from '../../upstream/upstream-task';
import type { AskedVideo, EmulatorReply, EmulatorRequest, VideoSource } from '../simulator-shared/emulator-http';

/** What the family specs share (never imported by the gateway itself; the build leaves `*.spec-support.ts` out). */

/** A builtin entry as the catalog serves it, with the changes an operator made. */
export function builtinEntry(entries: readonly BuiltinEntry[], id: string, changes: Partial<CatalogEntry> = {}): CatalogEntry {
  return { ...entries.find((candidate) => candidate.id === id)!, source: 'builtin', modified: false, ...changes };
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

/** An adapter's calls over real HTTP (to an emulator on loopback), on a clock at 0. */
export function loopbackCalls(config: AppConfig, http = new HttpService()): ProviderCalls {
  return new ProviderCalls(http, { now: () => 0 }, config);
}

/** A channel of `platform` on an emulator, with the emulator's key. */
export function emulatorChannel(platform: Platform, emulator: { url: string; apiKey: string }): ChannelEntity {
  return { id: 1, platform, baseUrl: emulator.url, apiKey: emulator.apiKey, settings: {} } as unknown as ChannelEntity;
}

/** A request to an emulator as the simulator hands it over, with an `Authorization` header. */
export function emulatorRequest(method: string, path: string, json: unknown, authorization: string): EmulatorRequest {
  return { method, path, query: new URLSearchParams(), headers: { authorization }, json };
}

/** The JSON an emulator answered (null for a file). */
export function replyJson(reply: EmulatorReply): Record<string, any> | null {
  return 'json' in reply ? (reply.json as Record<string, any>) : null;
}

/** A video source for emulator specs: it serves one byte (`x`) and keeps, in `seen`, what each fetched video asked. */
export function recordingVideoSource(): { seen: AskedVideo[]; source: VideoSource } {
  const seen: AskedVideo[] = [];
  return { seen, source: { madeFor: async (asked) => (seen.push(asked), { bytes: Buffer.from('x') }) } };
}
