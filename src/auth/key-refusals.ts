import { Injectable, Logger } from '@nestjs/common';
import type { ErrorCode } from '../common/errors/app-error';

export interface KeyRefusal {
  userId: number;
  apiKeyId: number;
  code: ErrorCode;
  message: string;
  model?: string | null;
}

type Listener = (refusal: KeyRefusal) => Promise<void>;

/**
 * Where a key's refusals (expired, address, rpm, quota, budget) are reported, so that the ledger's
 * owner can show them in the logs without the auth module writing billing's table.
 */
@Injectable()
export class KeyRefusals {
  private readonly logger = new Logger('KeyRefusals');
  private readonly listeners: Listener[] = [];

  subscribe(listener: Listener): void {
    this.listeners.push(listener);
  }

  /** Never awaited by the refused request, never fails it. */
  report(refusal: KeyRefusal): void {
    for (const listener of this.listeners) {
      listener(refusal).catch((error: Error) => this.logger.warn(`refusal of key ${refusal.apiKeyId} not logged: ${error.message}`));
    }
  }
}
