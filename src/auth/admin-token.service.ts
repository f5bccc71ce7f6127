import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { randomBase62 } from '../common/runtime/random-id';
import { SettingsService } from '../database/settings.service';

const SETTING = 'admin_token_sha256';
const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * The admin API's bearer token: ADMIN_TOKEN when the operator set it (for that run only: the
 * generated token's hash stays stored and works again on a start without ADMIN_TOKEN), otherwise
 * generated at first start, handed to the start-up banner once, and kept only as a hash.
 */
@Injectable()
export class AdminTokenService implements OnApplicationBootstrap {
  private tokenHash: Buffer | null = null;
  /** The token generated on this start, until the start-up banner has taken it. */
  private generated: string | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: SettingsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.adminToken) {
      this.tokenHash = sha256(this.config.adminToken);
      return;
    }
    const stored = await this.settings.get(SETTING);
    if (stored) {
      this.tokenHash = Buffer.from(stored, 'hex');
      return;
    }
    const token = `adm-${randomBase62(40)}`;
    await this.settings.set(SETTING, sha256(token).toString('hex'));
    this.tokenHash = sha256(token);
    this.generated = token;
  }

  /** The token generated on this start (null if none was): answered once, for the operator to copy. */
  takeGeneratedToken(): string | null {
    const token = this.generated;
    this.generated = null;
    return token;
  }

  matches(candidate: string): boolean {
    return this.tokenHash !== null && timingSafeEqual(sha256(candidate), this.tokenHash);
  }
}
