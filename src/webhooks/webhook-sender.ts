import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { LookupAddress } from 'node:dns';
import { Agent as HttpAgent, ClientRequest, IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { AppError } from '../common/errors/app-error';
import { publicOnlyLookup } from '../common/urls/public-fetch';
import { assertPublicHttpUrl, notPublicHostMessage } from '../common/urls/url-guard';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { signWebhook } from './webhook-signature';

/** A delivery counts only on a 2xx within this long. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** An answer's body is drained (so its connection is kept) up to this size; a bigger one closes the connection. */
const MAX_DRAINED_BODY = 64 * 1024;
/**
 * Idle pooled connections are closed after this long: below the common servers' keep-alive
 * timeouts (Node's 5 s), so a connection is rarely reused just as the endpoint closes it. A
 * server's `Keep-Alive: timeout=` hint is honoured too (by Node's agent).
 */
const IDLE_SOCKET_MS = 4_000;

/** What one attempt came to: `delivered` on a 2xx; otherwise why not, for the deliveries list and the metrics. */
export interface SendResult {
  outcome: 'delivered' | 'http_error' | 'timeout' | 'network_error' | 'refused';
  statusCode: number | null;
  error: string | null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** `publicOnlyLookup` in the callback form the socket asks for (one address, or all of them). */
function guardedLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  publicOnlyLookup(hostname).then(
    (addresses) => (options.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family)),
    (error: NodeJS.ErrnoException) => callback(error, ''),
  );
}

class RedirectError extends Error {}
class DeadlineError extends Error {}

/**
 * Sends one signed event to one endpoint: Standard Webhooks headers, the media SSRF rules checked
 * again at each attempt (DNS can change since registration; a new connection itself resolves only
 * to public addresses unless MEDIA_ALLOW_PRIVATE_HOSTS), no redirects followed, a hard 10 s deadline.
 *
 * Connections are pooled and kept alive (an endpoint gets many events in a row): a plain Node
 * request on a keep-alive agent, whose answer's body is drained and never read, costs a fraction
 * of a new connection per attempt.
 */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly agentOptions = { keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' as const };
  private readonly httpAgent = new HttpAgent(this.agentOptions);
  private readonly httpsAgent = new HttpsAgent(this.agentOptions);

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async send(url: string, secret: string, eventId: string, payload: string, nowMs: number): Promise<SendResult> {
    const body = Buffer.from(payload, 'utf8');
    const headers = {
      'content-type': 'application/json',
      'content-length': String(body.length),
      'user-agent': 'video-gateway-webhooks/1',
      'webhook-id': eventId,
      'webhook-timestamp': String(Math.floor(nowMs / 1000)),
      'webhook-signature': signWebhook(secret, eventId, new Date(nowMs), payload),
    };
    try {
      const target = await assertPublicHttpUrl(url, 'url', this.config.mediaAllowPrivateHosts);
      const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
      let status: number;
      try {
        status = await this.post(target, headers, body, deadline);
      } catch (error) {
        // A kept-alive connection the endpoint closed just as we reused it: once more on a fresh one.
        if (!(error as { reusedSocket?: boolean }).reusedSocket || Date.now() >= deadline) throw error;
        status = await this.post(target, headers, body, deadline);
      }
      const ok = status >= 200 && status < 300;
      return { outcome: ok ? 'delivered' : 'http_error', statusCode: status, error: ok ? null : `HTTP ${status}` };
    } catch (error) {
      return describeFailure(error);
    }
  }

  onApplicationShutdown(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  /** One POST; resolves with the status once the answer's head arrived (a 3xx with a Location is a RedirectError). */
  private post(target: URL, headers: Record<string, string>, body: Buffer, deadline: number): Promise<number> {
    const https = target.protocol === 'https:';
    const options = {
      method: 'POST',
      headers,
      agent: https ? this.httpsAgent : this.httpAgent,
      ...(this.config.mediaAllowPrivateHosts ? {} : { lookup: guardedLookup }),
    };
    return new Promise<number>((resolve, reject) => {
      let request: ClientRequest;
      const timer = setTimeout(() => request.destroy(new DeadlineError()), Math.max(1, deadline - Date.now()));
      timer.unref();
      const onResponse = (response: IncomingMessage) => {
        clearTimeout(timer);
        drain(response, deadline);
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) reject(new RedirectError());
        else resolve(status);
      };
      request = (https ? httpsRequest : httpRequest)(target, options, onResponse);
      request.on('error', (error: Error & { reusedSocket?: boolean }) => {
        clearTimeout(timer);
        error.reusedSocket =
          (request as ClientRequest & { reusedSocket?: boolean }).reusedSocket === true && !(error instanceof DeadlineError);
        reject(error);
      });
      request.end(body);
    });
  }
}

/** Reads the answer's body to its end and drops it (so the connection can be reused); a large or slow one closes the connection. */
function drain(response: IncomingMessage, deadline: number): void {
  let size = 0;
  const timer = setTimeout(() => response.destroy(), Math.max(1, deadline - Date.now()));
  timer.unref();
  response.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_DRAINED_BODY) response.destroy();
  });
  response.on('close', () => clearTimeout(timer));
  response.on('error', () => undefined);
}

function describeFailure(error: unknown): SendResult {
  if (error instanceof AppError) return { outcome: 'refused', statusCode: null, error: error.message };
  if (error instanceof RedirectError) return { outcome: 'http_error', statusCode: null, error: 'redirects are not followed' };
  if (error instanceof DeadlineError)
    return { outcome: 'timeout', statusCode: null, error: `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s` };
  const code = String((error as { code?: unknown })?.code ?? '');
  if (code === 'ENOTPUBLIC' || (error as { cause?: { code?: string } })?.cause?.code === 'ENOTPUBLIC') {
    return {
      outcome: 'refused',
      statusCode: null,
      error: notPublicHostMessage('url'),
    };
  }
  if (code === 'ETIMEDOUT') return { outcome: 'timeout', statusCode: null, error: `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s` };
  return { outcome: 'network_error', statusCode: null, error: code ? `connection failed (${code})` : 'connection failed' };
}
