import type { HttpService } from '@nestjs/axios';
import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_URL_FULL,
} from '@opentelemetry/semantic-conventions';
import { activeTracer } from '../telemetry/tracing';

type HttpClient = HttpService['axiosRef'];
type CallConfig = Parameters<Parameters<HttpClient['interceptors']['request']['use']>[0] & object>[0];

const CALL_SPAN = Symbol('providerCallSpan');
type SpannedConfig = CallConfig & { [CALL_SPAN]?: Span };

/**
 * A client span for every call on the shared HTTP client (every provider call: create, poll, cancel,
 * the video fetched for the archive or a proxy), a child of whatever span it is made in: a request's,
 * a task's poll or archive. The URL is kept without its query (a signed link's credentials); headers
 * (the channel's key) never are. A streamed answer's span ends when its headers arrive.
 * Installed only when tracing is on: off, the client has no interceptor at all.
 */
export function traceProviderCalls(client: HttpClient): void {
  const tracer = activeTracer();
  if (!tracer) return;
  client.interceptors.request.use((config: SpannedConfig) => {
    const method = (config.method ?? 'get').toUpperCase();
    const url = urlWithoutQuery(config.url, config.baseURL);
    config[CALL_SPAN] = tracer.startSpan(`${method} ${url?.host ?? 'provider'}`, {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: method,
        ...(url ? { [ATTR_SERVER_ADDRESS]: url.hostname, [ATTR_URL_FULL]: `${url.origin}${url.pathname}` } : {}),
      },
    });
    return config;
  });
  client.interceptors.response.use(
    (response) => {
      endCall((response.config as SpannedConfig)[CALL_SPAN], response.status);
      return response;
    },
    (error: unknown) => {
      const config = (error as { config?: SpannedConfig }).config;
      const status = (error as { response?: { status?: number } }).response?.status;
      // The error's kind and code only: an axios error also carries the request's config, headers and all.
      const reason = (error as { code?: string }).code ?? (error as Error)?.name ?? 'error';
      endCall(config?.[CALL_SPAN], status, reason);
      return Promise.reject(error);
    },
  );
}

function endCall(span: Span | undefined, status: number | undefined, failure?: string): void {
  if (!span) return;
  if (status !== undefined) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
  if (failure !== undefined || (status !== undefined && status >= 500)) span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
  span.end();
}

function urlWithoutQuery(url: string | undefined, base: string | undefined): URL | null {
  try {
    const parsed = new URL(url ?? '', base);
    parsed.search = '';
    return parsed;
  } catch {
    return null;
  }
}
