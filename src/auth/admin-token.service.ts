import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { randomBase62 } from '../common/random-id';
import { SettingsService } from '../database/settings.service';

const SETTING = 'admin_token_sha256';
const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * The admin API's bearer token: ADMIN_TOKEN when the operator set it, otherwise generated at
 * first start, printed once, and kept only as a hash.
 */
@Injectable()
export class AdminTokenService implements OnApplicationBootstrap {
  private readonly logger = new Logger('AdminToken');
  private tokenHash: Buffer | null = null;

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
    // Printed once, on purpose: this is the only time the operator can read it.
    this.logger.warn(`Generated ADMIN_TOKEN (shown once, store it now): ${token}`);
  }

  matches(candidate: string): boolean {
    return this.tokenHash !== null && timingSafeEqual(sha256(candidate), this.tokenHash);
  }
}
