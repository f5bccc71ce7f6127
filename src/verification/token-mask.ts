/** A provider token as shown in logs and views: enough to tell tokens apart, never enough to use one. */
export function maskToken(token: string | null | undefined): string {
  if (!token) return '';
  if (token.length <= 8) return '***';
  return `${token.slice(0, 4)}***${token.slice(-4)}`;
}
