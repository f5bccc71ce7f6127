import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { hkdfSync, randomBytes } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { SettingsService } from './settings.service';

const SETTING = 'server_secret';

/**
 * The one secret of this deployment, shared by every instance: SERVER_SECRET when the operator set
 * it, otherwise generated once at first start and kept in the database. Features never use it
 * directly: each derives a key of its own (`derive('signed-links')`), so one key never serves two jobs.
 */
@Injectable()
export class ServerSecret implements OnModuleInit {
  private secret: Buffer | null = null;
  /** Derived once per purpose: links and object keys are signed on hot paths (every task read). */
  private readonly derived = new Map<string, Buffer>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: SettingsService,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.serverSecret) {
      this.secret = Buffer.from(this.config.serverSecret, 'utf8');
      return;
    }
    // Two instances starting together both try; the first insert wins and both read it back.
    const stored = await this.settings.setIfAbsent(SETTING, randomBytes(32).toString('hex'));
    this.secret = Buffer.from(stored, 'hex');
  }

  /** A 32-byte key for one purpose (HKDF-SHA256 of the server secret). */
  derive(purpose: string): Buffer {
    if (!this.secret) throw new Error('ServerSecret is used before the database module started');
    let key = this.derived.get(purpose);
    if (!key) this.derived.set(purpose, (key = Buffer.from(hkdfSync('sha256', this.secret, Buffer.alloc(0), purpose, 32))));
    return key;
  }
}
