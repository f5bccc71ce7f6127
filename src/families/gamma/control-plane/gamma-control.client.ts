import { createHash } from 'node:crypto';
import { HttpService } from '@nestjs/axios';
import { Injectable, Logger } from '@nestjs/common';
import type { AxiosResponse } from 'axios';
import { Clock } from '../../../common/runtime/clock';
import { SpacedRateLimiter } from '../../../shared-state/spaced-rate-limiter.service';
import { isShowableLink } from '../../../common/urls/url-guard';
import { GAMMA_SECRET_SETTINGS } from '../gamma-channel-settings';
import type { ChannelEntity } from '../../../upstream/channel.entity';
import {
  channelSecrets,
  codeSummary,
  GENERIC_REASON,
  MAX_PROVIDER_BODY_BYTES,
  providerCode,
  transportErrorMessage,
} from '../../../upstream/provider-text';
import { UpstreamError, UpstreamErrorKind } from '../../../upstream/upstream-adapter';
import { signRequest } from './gamma-request-signer';
import {
  CONTROL_ACTION_LIMITS,
  CONTROL_API_VERSION,
  controlSettingsOf,
  CreateSessionResult,
  GammaControlAction,
  ListAssetsResult,
  ProviderAsset,
  ProviderError,
  ValidateResult,
} from './gamma-control.types';

const TIMEOUT_MS = 15_000;
/** Waiting longer than this for our own rate limiter turns into a 429 for the caller. */
const MAX_LIMITER_WAIT_MS = 2_000;

/** A control plane call that failed; `code` is the provider's `ResponseMetadata.Error.Code` when it sent one. */
export class GammaControlError extends UpstreamError {
  constructor(
    kind: UpstreamErrorKind,
    message: string,
    readonly code: string | undefined,
    details: UpstreamError['details'] = {},
  ) {
    super(kind, message, { ...details, upstreamCode: code });
  }
}

const CHANNEL_CODES =
  /^(SignatureDoesNotMatch|InvalidAccessKey|InvalidCredential|AccessDenied|Unauthorized|InvalidAuthorization|MissingAuthentication)/;
const THROTTLE_CODES = /(Throttl|RequestLimitExceeded|FlowLimit|TooManyRequests|RateLimit)/;

/** The control plane's error codes in the gateway's words (the provider's messages are never passed on). */
export const CONTROL_ERROR_REASONS: Readonly<Record<string, string>> = {
  SignatureDoesNotMatch: 'the request signature was refused',
  InvalidAccessKey: 'the provider refused the access key',
  InvalidCredential: 'the provider refused the credentials',
  InvalidAuthorization: 'the provider refused the credentials',
  MissingAuthentication: 'the provider refused the credentials',
  Unauthorized: 'the provider refused the credentials',
  AccessDenied: 'access denied',
  RequestLimitExceeded: 'rate limit exceeded',
  Throttling: 'rate limit exceeded',
  FlowLimitExceeded: 'rate limit exceeded',
  TooManyRequests: 'rate limit exceeded',
  InvalidParameter: 'invalid parameter',
  'InvalidParameter.CallbackURL': 'CallbackURL is not allowed',
  'InvalidParameter.URL': 'the image cannot be downloaded',
  'InvalidParameter.BytedToken': 'unknown or expired token',
  'InvalidParameter.GroupId': 'unknown group',
  MissingParameter: 'a required parameter is missing',
  NotFound: 'not found',
  'NotFound.Asset': 'asset not found',
  FaceMismatch: 'the face does not match the verified person',
  InvalidActionOrVersion: 'unknown action or version',
  InternalError: 'provider internal error',
  ServiceUnavailable: 'the provider is unavailable',
};

/**
 * Signed JSON calls to the family C control plane (`POST {control_base_url}/?Action=..&Version=..`):
 * adds ProjectName, signs with the channel's keys, keeps under the provider's per-action rate
 * limits, unwraps `ResponseMetadata`/`Result` (also unwrapped results) and turns provider errors
 * into GammaControlError with the gateway's error kinds.
 */
@Injectable()
export class GammaControlClient {
  private readonly logger = new Logger('GammaControl');

  constructor(
    private readonly http: HttpService,
    private readonly clock: Clock,
    private readonly limiter: SpacedRateLimiter,
  ) {}

  /** The H5 link goes to the client's browser: one that may not be shown (file://, link-local, credentials) counts as none. */
  async createSession(channel: ChannelEntity, callbackUrl: string): Promise<CreateSessionResult> {
    const result = await this.call<CreateSessionResult>(channel, 'CreateVisualValidateSession', { CallbackURL: callbackUrl });
    return isShowableLink(result?.H5Link) ? result : { ...result, H5Link: '' };
  }

  getValidateResult(channel: ChannelEntity, bytedToken: string): Promise<ValidateResult> {
    return this.call<ValidateResult>(channel, 'GetVisualValidateResult', { BytedToken: bytedToken });
  }

  createAsset(channel: ChannelEntity, input: { groupId: string; url: string; name: string }): Promise<{ Id: string }> {
    return this.call(channel, 'CreateAsset', { GroupId: input.groupId, URL: input.url, AssetType: 'Image', Name: input.name });
  }

  getAsset(channel: ChannelEntity, id: string): Promise<ProviderAsset> {
    return this.call<ProviderAsset>(channel, 'GetAsset', { Id: id });
  }

  listAssets(channel: ChannelEntity, groupIds: string[], page: number, pageSize: number): Promise<ListAssetsResult> {
    return this.call<ListAssetsResult>(channel, 'ListAssets', { Filter: { GroupIds: groupIds }, PageNumber: page, PageSize: pageSize });
  }

  async deleteAsset(channel: ChannelEntity, id: string): Promise<void> {
    await this.call(channel, 'DeleteAsset', { Id: id });
  }

  async call<T>(channel: ChannelEntity, action: GammaControlAction, params: Record<string, unknown>): Promise<T> {
    const settings = controlSettingsOf(channel);
    if (!settings) throw new GammaControlError('channel', `channel ${channel.id} has no control plane settings`, undefined);
    // The provider counts per account; the access key is hashed, since the key names end up in Redis.
    await this.waitForRateLimit(`${createHash('sha256').update(settings.accessKey).digest('hex').slice(0, 24)}|${action}`, action);

    const url = new URL(`${settings.baseUrl.replace(/\/+$/, '')}/`);
    url.searchParams.set('Action', action);
    url.searchParams.set('Version', CONTROL_API_VERSION);
    const body = JSON.stringify({ ProjectName: settings.projectName, ...params });
    const { headers } = signRequest({
      method: 'POST',
      path: url.pathname,
      query: url.searchParams,
      host: url.host,
      contentType: 'application/json',
      body,
      accessKey: settings.accessKey,
      secretKey: settings.secretKey,
      region: settings.region,
      date: new Date(this.clock.now()),
    });

    let response: AxiosResponse<string>;
    try {
      response = await this.http.axiosRef.request<string>({
        method: 'POST',
        url: url.toString(),
        data: body,
        headers: { ...headers, Accept: 'application/json' },
        timeout: TIMEOUT_MS,
        responseType: 'text',
        transformResponse: (raw: string) => raw,
        validateStatus: () => true,
        // A larger answer is cut off while it arrives (a transient error); a redirect is not followed.
        maxContentLength: MAX_PROVIDER_BODY_BYTES,
        maxRedirects: 0,
      });
    } catch (error) {
      throw new GammaControlError('transient', transportErrorMessage(`verification provider (${action})`, error), undefined);
    }
    return this.unwrap<T>(action, channel, response);
  }

  private async waitForRateLimit(key: string, action: GammaControlAction): Promise<void> {
    const limit = CONTROL_ACTION_LIMITS[action];
    // Shared by every instance (through Redis when REDIS_URL is set).
    if (!(await this.limiter.acquire(`gamma-control:${key}`, limit, MAX_LIMITER_WAIT_MS))) {
      throw new GammaControlError(
        'backpressure',
        `too many ${action} calls: the provider allows ${limit.limit} per ${limit.windowMs / 1000} s`,
        undefined,
        {
          retryAfterSeconds: 1,
        },
      );
    }
  }

  private unwrap<T>(action: GammaControlAction, channel: ChannelEntity, response: AxiosResponse<string>): T {
    let parsed: Record<string, unknown> | null = null;
    try {
      const value = JSON.parse(response.data);
      if (value && typeof value === 'object' && !Array.isArray(value)) parsed = value;
    } catch {
      /* not JSON: handled below */
    }
    const metadata = parsed?.ResponseMetadata as { Error?: ProviderError; RequestId?: string } | undefined;
    const providerError = metadata?.Error && typeof metadata.Error === 'object' ? metadata.Error : undefined;
    const ok = response.status >= 200 && response.status < 300;
    if (ok && parsed && !providerError) {
      if (parsed.Result && typeof parsed.Result === 'object') return parsed.Result as T;
      // Some actions answer with the result fields at the top level.
      const { ResponseMetadata: _metadata, ...rest } = parsed;
      return rest as T;
    }
    const secrets = channelSecrets(channel, GAMMA_SECRET_SETTINGS);
    const error = classify(action, response.status, providerError, response.headers['retry-after'], secrets);
    const rawRequestId = metadata?.RequestId;
    const requestId =
      typeof rawRequestId === 'string' && /^[\w-]{1,64}$/.test(rawRequestId) && !secrets.includes(rawRequestId) ? rawRequestId : '-';
    this.logger.warn(`${action} on channel ${channel.id} failed: HTTP ${response.status} ${error.message} (request ${requestId})`);
    throw error;
  }
}

/** The provider's code mapped to the gateway's words and kinds; its Message is never passed on. */
function classify(
  action: GammaControlAction,
  status: number,
  error: ProviderError | undefined,
  retryAfter: unknown,
  secrets: string[],
): GammaControlError {
  const code = providerCode(error?.Code, secrets);
  const text = (generic: string) => codeSummary(CONTROL_ERROR_REASONS, code, generic, status);
  const details = { httpStatus: status };
  if (status === 429 || (code && THROTTLE_CODES.test(code))) {
    const seconds = typeof retryAfter === 'string' && /^\d+$/.test(retryAfter) ? Math.max(1, Number(retryAfter)) : 1;
    return new GammaControlError('backpressure', text(GENERIC_REASON.backpressure), code, { ...details, retryAfterSeconds: seconds });
  }
  if (status === 401 || status === 403 || (code && CHANNEL_CODES.test(code)))
    return new GammaControlError('channel', text(GENERIC_REASON.channel), code, details);
  if (status >= 500 || (!code && status >= 200 && status < 300)) {
    return new GammaControlError(
      'transient',
      code || status >= 500 ? text(GENERIC_REASON.transient) : `${action}: the provider's answer is not JSON`,
      code,
      details,
    );
  }
  if (status === 404 && !code)
    return new GammaControlError('channel', `${text(GENERIC_REASON.channel)} (is control_base_url right?)`, code, details);
  return new GammaControlError('invalid_input', text(GENERIC_REASON.invalid_input), code, details);
}
