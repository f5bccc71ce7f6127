import type { Response } from 'express';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ApiKeyGuard } from '../auth/api-key.guard';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { presentsSignedLink } from './signed-content-link.middleware';
import { SignedLinksService } from './signed-links.service';

/** `/content`: a valid signed link (403 when altered or expired) or, without one, an API key. */
@Injectable()
export class ContentAccessGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeyGuard,
    private readonly links: SignedLinksService,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest & { signedLink?: boolean }>();
    if (!presentsSignedLink(req)) return this.apiKeys.canActivate(context);
    const query = req.query as Record<string, unknown>;
    this.links.verify(String(req.params.id), query.expires, query.signature);
    req.signedLink = true;
    // A signed link is meant for another site's `<video src>` / `<img src>`: the media (only it) may be embedded from any origin.
    context.switchToHttp().getResponse<Response>().setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    return true;
  }
}
