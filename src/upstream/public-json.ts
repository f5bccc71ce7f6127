import type { HttpService } from '@nestjs/axios';
import { QUERY_CALL_TIMEOUT_MS } from './provider-call-timeouts';
import { UpstreamError } from './upstream-adapter';

/** A provider's published document (an OpenAPI schema) is read up to this size. */
const MAX_PUBLIC_DOCUMENT_BYTES = 4 * 1024 * 1024;

/**
 * A public JSON document of a provider's (no key goes with it): the parsed body, null on a 404;
 * any other failure an UpstreamError (`transient`), its text never the provider's.
 */
export async function readPublicJson(http: HttpService, url: string, params: Record<string, string> = {}): Promise<unknown> {
  let answer;
  try {
    answer = await http.axiosRef.get(url, {
      params,
      timeout: QUERY_CALL_TIMEOUT_MS,
      maxRedirects: 0,
      maxContentLength: MAX_PUBLIC_DOCUMENT_BYTES,
      responseType: 'json',
      validateStatus: () => true,
    });
  } catch {
    throw new UpstreamError('transient', 'the provider could not be reached');
  }
  if (answer.status === 404) return null;
  if (answer.status < 200 || answer.status >= 300 || typeof answer.data !== 'object' || answer.data === null)
    throw new UpstreamError('transient', `the provider answered HTTP ${answer.status}`);
  return answer.data;
}
