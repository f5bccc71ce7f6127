/** The feed's address as the admin API shows it: no credentials, no query (either may hold a secret). */
export function shownFeedUrl(raw: string): string {
  if (raw.startsWith('file:') && !raw.startsWith('file://')) return raw;
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname}${url.search ? '?…' : ''}`;
  } catch {
    return '(not a URL)';
  }
}

/** Where the document's signature is: `.sig` after the path (a query, such as a token, stays as it is). */
export function signatureUrlOf(raw: string): string {
  if (raw.startsWith('file:') && !raw.startsWith('file://')) return `${raw}.sig`;
  const url = new URL(raw);
  url.pathname = `${url.pathname}.sig`;
  return url.toString();
}

/** A `file:` feed's path: `file:relative/or/absolute` or `file:///absolute`. */
export function feedFilePath(raw: string): string {
  return raw.startsWith('file://') ? new URL(raw).pathname : raw.slice('file:'.length);
}
