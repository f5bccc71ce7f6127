import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { sniffImageType } from '../common/urls/image-type';
import { randomBase62 } from '../common/runtime/random-id';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ServerSecret } from '../database/server-secret.service';
import type { PortraitUploadEntity } from './entities/portrait-upload.entity';
import { PortraitUploadRepository } from './portrait-upload.repository';

/** Largest portrait file the console takes (the provider's own limit on portrait images). */
export const MAX_PORTRAIT_BYTES = 10 * 1024 * 1024;
/** How long the provider may fetch an uploaded portrait: it does so when the asset is created, or soon after. */
const UPLOAD_TTL_MS = 24 * 3600_000;

/**
 * Portraits uploaded as files: kept in the database and served at a signed, expiring link on the
 * gateway (its own host is a trusted media source), so the asset flow is the one of a portrait URL.
 */
@Injectable()
export class PortraitUploadsService {
  constructor(
    private readonly uploads: PortraitUploadRepository,
    private readonly secret: ServerSecret,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Keeps a JPEG, PNG or WebP portrait and returns the link the provider fetches it from; 400 naming `field` otherwise. */
  async store(userId: number, bytes: Buffer, field: string): Promise<string> {
    if (bytes.length === 0) throw AppError.invalid(`${field} is empty`, field);
    if (bytes.length > MAX_PORTRAIT_BYTES)
      throw AppError.invalid(`${field} is larger than ${MAX_PORTRAIT_BYTES / (1024 * 1024)} MB`, field);
    const contentType = sniffImageType(bytes);
    if (!contentType) throw AppError.invalid(`${field} must be a JPEG, PNG or WebP image`, field);
    const now = this.clock.now();
    const upload = {
      uploadId: `pu_${randomBase62(32)}`,
      userId,
      contentType,
      size: bytes.length,
      bytes,
      createdAt: now,
      expiresAt: now + UPLOAD_TTL_MS,
    };
    // Expired uploads go as new ones come: the table holds about a day of uploads.
    await this.uploads.insertSweepingExpired(upload, now);
    const expires = Math.floor(upload.expiresAt / 1000);
    return `${this.config.publicBaseUrl}/media/portraits/${upload.uploadId}?expires=${expires}&signature=${this.sign(upload.uploadId, expires)}`;
  }

  /** Housekeeping: deletes up to `limit` uploads whose link expired before `now`; returns the rows and the bytes they held. */
  deleteExpiredUploads(now: number, limit: number): Promise<{ rows: number; bytes: number }> {
    return this.uploads.deleteExpired(now, limit);
  }

  /** The portrait behind a signed link; 403 for a link not made here or expired, 404 once it is gone. */
  async read(uploadId: string, expires: unknown, signature: unknown): Promise<PortraitUploadEntity> {
    const refused = new AppError(ErrorCode.Forbidden, 'the link is invalid or has expired');
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature))
      throw refused;
    if (!timingSafeEqual(Buffer.from(this.sign(uploadId, Number(expires)), 'hex'), Buffer.from(signature, 'hex'))) throw refused;
    if (Number(expires) * 1000 < this.clock.now()) throw refused;
    const upload = await this.uploads.findByUploadId(uploadId);
    if (!upload) throw AppError.notFound('portrait not found');
    return upload;
  }

  private sign(uploadId: string, expires: number): string {
    return createHmac('sha256', this.secret.derive('portrait-uploads')).update(`${uploadId}\n${expires}`).digest('hex');
  }
}
