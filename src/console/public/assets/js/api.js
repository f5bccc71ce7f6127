// fetch() wrapper for the console: same-origin cookie session, CSRF header on state changes.

let csrfToken = null;
let identity = null;
let onSignedOut = null;

const identityOf = (session) => (session ? `${session.role}:${session.user?.id ?? 'token'}` : null);

export class ApiError extends Error {
  /** `constraint`: the rule a 400's field broke, by name (`arrayMinSize`), which the console words in its language. */
  constructor(status, message, param, constraint = null) {
    super(message);
    this.status = status;
    this.param = param;
    this.constraint = constraint;
  }
}

/** The signed-in session (or null): its CSRF token goes on every state change. */
export function setSession(session) {
  csrfToken = session?.csrf_token ?? null;
  identity = identityOf(session);
}

/** Called when a call answers 401 (the session expired or was ended elsewhere). */
export function onUnauthorized(handler) {
  onSignedOut = handler;
}

/**
 * `bearer`: a call to the public API with one of the customer's API keys (the playground): no cookie
 * and no CSRF token, and its 401 is the key's, which does not sign the console out.
 * @typedef {{ method?: string, body?: unknown, query?: Record<string, unknown>, quiet401?: boolean, retried?: boolean, bearer?: string }} ApiOptions
 * @param {string} path
 * @param {ApiOptions} [options]
 */
export async function api(path, options = {}) {
  try {
    return await send(path, options);
  } catch (error) {
    // Another tab signed in again, so this tab's CSRF token is stale. Retry once with the new one,
    // but only as the same person: if someone else signed in, reload to show their console instead.
    if (error.status !== 403 || !/CSRF/.test(error.message) || options.retried) throw error;
    const session = await send('/console/api/session', { quiet401: options.quiet401 });
    if (identityOf(session) !== identity) {
      location.reload();
      throw error;
    }
    csrfToken = session.csrf_token;
    return send(path, { ...options, retried: true });
  }
}

/** @param {string} path @param {ApiOptions} [options] */
async function send(path, { method = 'GET', body, query, quiet401 = false, bearer } = {}) {
  const url = new URL(path, location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(key, String(value));
  }
  const headers = { Accept: 'application/json' };
  // A FormData body (a file upload) goes as multipart: the browser sets its Content-Type and boundary.
  const multipart = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  else if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
    credentials: bearer ? 'omit' : 'same-origin',
  });
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const message = data?.error?.message ?? data?.message ?? `${response.status} ${response.statusText}`;
    if (response.status === 401 && !quiet401 && !bearer && onSignedOut) onSignedOut();
    throw new ApiError(response.status, message, data?.error?.param ?? null, data?.error?.constraint ?? null);
  }
  return data;
}
