import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { AppError } from '../common/app-error';
import { isGammaModel } from '../families/gamma/gamma-body.parser';

const MAX_DEPTH = 8;

/** The first `asset://` string in a JSON value, with its dotted path. */
function findAssetReference(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.trim().toLowerCase().startsWith('asset://') ? path : null;
  if (depth >= MAX_DEPTH || typeof value !== 'object' || value === null) return null;
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((item, i) => [`${path}[${i}]`, item]) : Object.entries(value).map(([k, v]) => [path ? `${path}.${k}` : k, v]);
  for (const [childPath, child] of entries) {
    const found = findAssetReference(child, childPath, depth + 1);
    if (found) return found;
  }
  return null;
}

const SUBMIT_PATHS = new Set(['/v1/videos', '/v1/video/generations']);

/**
 * Verified assets belong to family C: on the video submit endpoints, an `asset://` reference
 * with any other model is refused with a 400 naming the field, before the submit (or a charge).
 * An interceptor rather than a middleware, so authentication (401/403) still comes first.
 */
@Injectable()
export class AssetReferenceInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const body = req.body as unknown;
    if (req.method === 'POST' && SUBMIT_PATHS.has(req.path.replace(/\/+$/, '')) && typeof body === 'object' && body !== null && !Array.isArray(body)) {
      const model = (body as Record<string, unknown>).model;
      if (!isGammaModel(model)) {
        const field = findAssetReference(body, '');
        if (field) throw AppError.invalid(`${field}: asset:// references can only be used with gamma-2-0 and gamma-2-0-fast (model ${String(model)})`, field);
      }
    }
    return next.handle();
  }
}
