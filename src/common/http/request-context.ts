import type { Request } from 'express';

/**
 * A request as the common middleware sees it: its id, and who made it once a guard said so (the
 * auth module's AuthenticatedRequest narrows the caller to its entities).
 */
export interface IdentifiedRequest extends Request {
  requestId: string;
  user?: { id: number };
  apiKey?: { id: number };
  isAdmin?: boolean;
}
