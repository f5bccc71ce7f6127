import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { bearerToken } from '../common/http/bearer';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { APP_CONFIG, AppConfig } from '../config/app-config';

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/** With METRICS_TOKEN set, /metrics answers only `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time). */
@Injectable()
export class MetricsTokenGuard implements CanActivate {
  private readonly tokenHash: Buffer | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.tokenHash = config.metricsToken ? sha256(config.metricsToken) : null;
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.tokenHash) return true;
    const token = bearerToken(context.switchToHttp().getRequest<Request>());
    // Hashes of equal length, so the comparison takes the same time whatever was sent.
    if (token !== null && timingSafeEqual(sha256(token), this.tokenHash)) return true;
    throw new AppError(ErrorCode.Unauthorized, 'missing or wrong metrics token: send Authorization: Bearer <METRICS_TOKEN>');
  }
}
