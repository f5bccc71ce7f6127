import { HttpService } from '@nestjs/axios';
import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { AppError } from '../common/app-error';
import { fetchPublicUrl, TooManyRedirectsError } from '../common/public-fetch';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { signWebhook } from './webhook-signature';

/** A delivery counts only on a 2xx within this long. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** What one attempt came to: `delivered` on a 2xx; otherwise why not, for the deliveries list and the metrics. */
export interface SendResult {
  outcome: 'delivered' | 'http_error' | 'timeout' | 'network_error' | 'refused';
  statusCode: number | null;
  error: string | null;
}

/**
 * Sends one signed event to one endpoint: Standard Webhooks headers, the media SSRF rules checked
 * again at each attempt (DNS can change since registration; the connection itself resolves only to
 * public addresses unless MEDIA_ALLOW_PRIVATE_HOSTS), no redirects followed, a hard 10 s deadline.
 * The response body is never read.
 */
@Injectable()
export class WebhookSender {
  constructor(
    private readonly http: HttpService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async send(url: string, secret: string, eventId: string, payload: string, nowMs: number): Promise<SendResult> {
    const timestamp = new Date(nowMs);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'video-gateway-webhooks/1',
      'webhook-id': eventId,
      'webhook-timestamp': String(Math.floor(nowMs / 1000)),
      'webhook-signature': signWebhook(secret, eventId, timestamp, payload),
    };
    try {
      const response = await fetchPublicUrl<Readable>(
        this.http.axiosRef,
        { url, method: 'POST', data: payload, headers, responseType: 'stream', timeout: DELIVERY_TIMEOUT_MS, signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) },
        { field: 'url', allowPrivate: this.config.mediaAllowPrivateHosts, maxRedirects: 0 },
      );
      response.data?.destroy?.();
      const ok = response.status >= 200 && response.status < 300;
      return { outcome: ok ? 'delivered' : 'http_error', statusCode: response.status, error: ok ? null : `HTTP ${response.status}` };
    } catch (error) {
      return describeFailure(error);
    }
  }
}

function describeFailure(error: unknown): SendResult {
  if (error instanceof AppError) return { outcome: 'refused', statusCode: null, error: error.message };
  if (error instanceof TooManyRedirectsError) return { outcome: 'http_error', statusCode: null, error: 'redirects are not followed' };
  const code = String((error as { code?: unknown })?.code ?? '');
  const name = String((error as { name?: unknown })?.name ?? '');
  if (code === 'ENOTPUBLIC' || (error as { cause?: { code?: string } })?.cause?.code === 'ENOTPUBLIC') {
    return { outcome: 'refused', statusCode: null, error: 'url must point to a public host (private, loopback and link-local addresses are refused)' };
  }
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || code === 'ERR_CANCELED' || name === 'TimeoutError' || name === 'CanceledError') {
    return { outcome: 'timeout', statusCode: null, error: `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s` };
  }
  return { outcome: 'network_error', statusCode: null, error: code ? `connection failed (${code})` : 'connection failed' };
}
