import type { Response } from 'express';

/**
 * Makes a route's returned text a CSV download (`text/csv`, an attachment named `fileName`): Nest's
 * adapter then sends the string as it is, not as JSON (a response that has a Content-Type is left to it).
 */
export function asCsvAttachment(res: Response, fileName: string): void {
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${fileName.replace(/["\\\r\n]/g, '_')}"`);
}
