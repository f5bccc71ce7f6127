import { Inject, Injectable } from '@nestjs/common';
import { UsersService } from '../auth/users.service';
import { AppError } from '../common/errors/app-error';
import { Clock } from '../common/runtime/clock';
import { assertPublicHttpUrl } from '../common/urls/url-guard';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { TransactionRunner } from '../database/transaction-runner';
import type { Caller } from '../auth/caller';
import type { SubmitFieldRecorder } from '../tasks/task-submit-fields';
import { TaskSubmitFields } from '../tasks/task-submit-fields';
import { TaskCallbackRepository } from './task-callback.repository';
import { DeliveryRecord, WebhookDeliveryLogRepository } from './webhook-delivery-log.repository';
import { WEBHOOK_EVENT_TYPES, WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';
import { newCallbackRowId } from './webhook-ids';
import { newEndpointRow } from './new-endpoint-row';
import { newWebhookSecret, WebhookSecretBox } from './webhook-secret-box';

/** The submit field. */
export const CALLBACK_URL_FIELD = 'callback_url';
/** Longer URLs are refused (a URL is a header-sized thing; the column is text). */
const MAX_CALLBACK_URL = 2048;

/** The account's callback secret as the console shows it (never the secret itself). */
export interface CallbackSecretState {
  set: boolean;
  createdAt: number | null;
  rotatedAt: number | null;
}

/**
 * Per-request callbacks: a submit's `callback_url` (checked before any charge, recorded with the
 * task), the account's callback secret (created or rotated, shown once), and the callback attempts.
 * The publisher sends each task's end to its callback URL through the same outbox and retries as
 * the endpoints', signed with the callback secret as it is when sent.
 * Why 9 constructor dependencies: it checks a submit's `callback_url` (the submit fields, the account), keeps the
 * account's secret (its repository, the secret box, a transaction, the clock) and lists the attempts (their
 * repository); the three are one customer-facing feature, and a split would share most of them.
 */
@Injectable()
export class WebhookCallbacksService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryLogRepository,
    private readonly callbacks: TaskCallbackRepository,
    private readonly secrets: WebhookSecretBox,
    private readonly users: UsersService,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
    fields: TaskSubmitFields,
  ) {
    fields.register(CALLBACK_URL_FIELD, (value, caller) => this.checkCallbackUrl(value, caller));
  }

  /**
   * A submit's `callback_url`: an http(s) URL without credentials, public unless
   * MEDIA_ALLOW_PRIVATE_HOSTS, from an account that has a callback secret. Answers the write that
   * records it with the task.
   */
  async checkCallbackUrl(value: unknown, caller: Caller): Promise<SubmitFieldRecorder> {
    if (typeof value !== 'string') throw AppError.invalid(`${CALLBACK_URL_FIELD} must be a string`, CALLBACK_URL_FIELD);
    if (value.length > MAX_CALLBACK_URL)
      throw AppError.invalid(`${CALLBACK_URL_FIELD} must be at most ${MAX_CALLBACK_URL} characters`, CALLBACK_URL_FIELD);
    const parsed = await assertPublicHttpUrl(value, CALLBACK_URL_FIELD, this.config.mediaAllowPrivateHosts);
    if (parsed.username || parsed.password)
      throw AppError.invalid(`${CALLBACK_URL_FIELD} must not contain credentials`, CALLBACK_URL_FIELD);
    if (!(await this.endpoints.callbackOf(caller.user.id))) {
      throw AppError.invalid(
        `${CALLBACK_URL_FIELD} needs the account's callback secret to sign its events: create one with POST /v1/webhooks/callback-secret`,
        CALLBACK_URL_FIELD,
      );
    }
    const url = parsed.toString();
    return (manager, task) => this.callbacks.insert(manager, { taskRowId: task.id, userId: task.userId, url, createdAt: task.createdAt });
  }

  /**
   * A new callback secret for the account, shown only in this answer; the one before (if any) signs
   * nothing from now on. The account's row is locked, so two calls at once leave one secret.
   */
  async rotateSecret(userId: number): Promise<string> {
    const secret = newWebhookSecret();
    const sealed = this.secrets.seal(secret);
    const now = this.clock.now();
    await this.transactions.run(async (manager) => {
      await this.users.lockInTransaction(manager, userId);
      const existing = await this.endpoints.callbackOf(userId, manager);
      if (existing) return this.endpoints.replaceCallbackSecret(manager, existing.id, sealed, now);
      await this.endpoints.insert(manager, callbackRow(userId, sealed, now));
    });
    return secret;
  }

  async secretState(userId: number): Promise<CallbackSecretState> {
    const row = await this.endpoints.callbackOf(userId);
    if (!row) return { set: false, createdAt: null, rotatedAt: null };
    return { set: true, createdAt: row.createdAt, rotatedAt: row.updatedAt > row.createdAt ? row.updatedAt : null };
  }

  /** The account's callback attempts, newest first (the last 100), of one task when `taskId` is given. */
  async deliveriesOf(userId: number, taskId: string | undefined): Promise<DeliveryRecord[]> {
    const row = await this.endpoints.callbackOf(userId);
    return row ? this.deliveries.listForCallback(row.id, taskId) : [];
  }
}

/** The account's callback row: an endpoint of kind `callback` that holds the sealed secret, takes every event type and is never disabled. */
function callbackRow(userId: number, secretEncrypted: string, now: number): Omit<WebhookEndpointEntity, 'id'> {
  return newEndpointRow({
    endpointId: newCallbackRowId(),
    userId,
    kind: 'callback',
    url: '',
    events: [...WEBHOOK_EVENT_TYPES],
    secretEncrypted,
    now,
  });
}
