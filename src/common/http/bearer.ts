import type { IncomingMessage } from 'node:http';

/** The token of `Authorization: Bearer <token>`; null without one. */
export function bearerToken(req: Pick<IncomingMessage, 'headers'>): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match ? match[1].trim() : null;
}
