import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError, ErrorCode } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ServerSecret } from '../database/server-secret.service';
import type { TaskEntity } from '../tasks/task.entity';

/** The one answer to a link that does not (or no longer) play: altered, expired, or its account disabled. */
export const refusedLink = (): AppError => new AppError(ErrorCode.Forbidden, 'the link is invalid or has expired');

/** What the views ask for a finished task's link (`metadata.url`, `data.result_url`). */
export interface ContentLinks {
  contentUrl(task: TaskEntity): string;
  /** Quota units per unit of the operator's currency: a task answer's `usage.usd` beside its link. */
  readonly quotaPerUnit: number;
}

/**
 * The gateway's own expiring links to `/v1/videos/{id}/content`: `expires` (unix seconds) and
 * `signature` (hex HMAC-SHA256 of the task id and `expires`, keyed by the server secret's
 * `signed-links` key). They stand in for an API key, so a `<video src>` plays them.
 */
@Injectable()
export class SignedLinksService implements ContentLinks {
  constructor(
    private readonly secret: ServerSecret,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get quotaPerUnit(): number {
    return this.config.quotaPerUnit;
  }

  contentUrl(task: Pick<TaskEntity, 'taskId'>): string {
    return this.linkExpiring(task.taskId, Math.floor(this.clock.now() / 1000) + this.config.videoUrlTtlSeconds);
  }

  /**
   * The link a provider is sent to fetch a source video (a remix): its expiry on a grid of VIDEO_URL_TTL_S,
   * so that the same request made twice within a period is the same request (Idempotency-Key); valid at
   * least VIDEO_URL_TTL_S, at most twice that.
   */
  sourceUrl(taskId: string): string {
    const ttl = this.config.videoUrlTtlSeconds;
    return this.linkExpiring(taskId, (Math.floor(this.clock.now() / 1000 / ttl) + 2) * ttl);
  }

  private linkExpiring(taskId: string, expires: number): string {
    const signature = this.sign(taskId, expires, this.secret.derive('signed-links')).toString('hex');
    return `${this.config.publicBaseUrl}/v1/videos/${encodeURIComponent(taskId)}/content?expires=${expires}&signature=${signature}`;
  }

  /** 403 unless the link was made here for this task and has not expired. */
  verify(taskId: string, expires: unknown, signature: unknown): void {
    const refused = refusedLink();
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature))
      throw refused;
    // Any key of the server secret: a link made before a rotation plays until it expires.
    const given = Buffer.from(signature, 'hex');
    if (!this.secret.deriveAll('signed-links').some((key) => timingSafeEqual(this.sign(taskId, Number(expires), key), given)))
      throw refused;
    if (Number(expires) * 1000 < this.clock.now()) throw refused;
  }

  private sign(taskId: string, expires: number, key: Buffer): Buffer {
    return createHmac('sha256', key).update(`${taskId}\n${expires}`).digest();
  }
}
