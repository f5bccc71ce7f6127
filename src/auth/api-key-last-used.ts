import { Injectable, Logger } from '@nestjs/common';
import type { ApiKeyEntity } from './api-key.entity';
import { ApiKeyRepository } from './api-key.repository';

/** last_used_at is shown to the minute: one write per key per minute (per instance) is enough. */
const WRITE_EVERY_MS = 60_000;
const MAX_TRACKED = 10_000;

/** Records when each key was last used, without a database write on every request. */
@Injectable()
export class ApiKeyLastUsed {
  private readonly logger = new Logger('ApiKeyLastUsed');
  private readonly written = new Map<number, number>();

  constructor(private readonly keys: ApiKeyRepository) {}

  /** Called on every authenticated request; writes in the background, never delays or fails it. */
  touch(apiKey: ApiKeyEntity, now: number): void {
    const last = this.written.get(apiKey.id) ?? apiKey.lastUsedAt ?? 0;
    if (now - last < WRITE_EVERY_MS) return;
    if (this.written.size >= MAX_TRACKED) this.written.clear();
    this.written.set(apiKey.id, now);
    this.keys
      .touchLastUsed(apiKey.id, now)
      .catch((error: Error) => this.logger.warn(`last use of key ${apiKey.id} not recorded: ${error.message}`));
  }
}
