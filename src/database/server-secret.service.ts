import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { hkdfSync, randomBytes } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { SettingsService } from './settings.service';

const SETTING = 'server_secret';
/** Object names in the video store must not change when the secret rotates (see objectNamingKeyAtStart). */
const OBJECT_NAMING_SETTING = 'video_object_naming_key';
const OBJECT_NAMING_PURPOSE = 'video-store-keys';

const hkdf = (secret: Buffer, purpose: string) => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), purpose, 32));

/**
 * The one secret of this deployment, shared by every instance: SERVER_SECRET when the operator set
 * it (kept outside the database), otherwise generated once at first start and kept in the database.
 * Features never use it directly: each derives a key of its own (`derive('signed-links')`), so one
 * key never serves two jobs.
 *
 * Rotation: the keys before the current one (SERVER_SECRET_PREVIOUS, and the database-held secret
 * when the operator has just switched to SERVER_SECRET) still open and verify (`deriveAll`) while
 * the owners of sealed values re-seal them with the current key at start (their onModuleInit).
 * Once every module started, the database-held secret is deleted: the database then holds no key
 * that signs or opens anything (only the object-naming key, see objectNamingKeyAtStart).
 */
@Injectable()
export class ServerSecret implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('ServerSecret');
  private secrets: Buffer[] = [];
  private objectNaming: Buffer | null = null;
  /** SERVER_SECRET is set and the database still holds the secret of before: a previous key until every module started. */
  private retiringDatabaseSecret = false;
  /** Derived once per purpose: links and object keys are signed on hot paths (every task read). */
  private readonly derived = new Map<string, Buffer[]>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: SettingsService,
  ) {}

  async onModuleInit(): Promise<void> {
    const stored = await this.settings.get(SETTING);
    if (this.config.serverSecret) {
      const configured = [this.config.serverSecret, this.config.serverSecretPrevious].filter(
        (value): value is string => value !== undefined,
      );
      this.secrets = [...configured.map((value) => Buffer.from(value, 'utf8')), ...(stored !== null ? [Buffer.from(stored, 'hex')] : [])];
      this.retiringDatabaseSecret = stored !== null;
    } else {
      // Two instances starting together both try; the first insert wins and both read it back.
      this.secrets = [Buffer.from(stored ?? (await this.settings.setIfAbsent(SETTING, randomBytes(32).toString('hex'))), 'hex')];
    }
    this.objectNaming = await this.objectNamingKeyAtStart();
  }

  /**
   * Fixed at the first start of a deployment (or of this version) and kept in the database, so the
   * objects archived so far keep their names whatever rotates later. It derives from the oldest key
   * known then: the database-held secret, else SERVER_SECRET_PREVIOUS, else SERVER_SECRET. It names
   * objects only: it neither signs nor opens anything.
   */
  private async objectNamingKeyAtStart(): Promise<Buffer> {
    const stored = await this.settings.get(OBJECT_NAMING_SETTING);
    if (stored) return Buffer.from(stored, 'hex');
    const oldest = hkdf(this.secrets[this.secrets.length - 1], OBJECT_NAMING_PURPOSE);
    return Buffer.from(await this.settings.setIfAbsent(OBJECT_NAMING_SETTING, oldest.toString('hex')), 'hex');
  }

  /** Runs after every module's onModuleInit, so after every owner re-sealed its values with the current key. */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.retiringDatabaseSecret) return;
    await this.settings.delete(SETTING);
    // It opened the values sealed before, once; a link it signed is refused from now on, like one forged from an old copy of the database.
    this.secrets = this.secrets.slice(0, -1);
    this.derived.clear();
    this.retiringDatabaseSecret = false;
    this.logger.log('SERVER_SECRET is set: stored secrets were re-encrypted with it and the database-held server secret was deleted');
  }

  /** Whether values sealed before may use another key than the current one (re-seal them at start). */
  hasPreviousKeys(): boolean {
    return this.secrets.length > 1;
  }

  /** A 32-byte key for one purpose (HKDF-SHA256 of the current server secret): sign and seal with it. */
  derive(purpose: string): Buffer {
    return this.deriveAll(purpose)[0];
  }

  /** The key for one purpose from the current secret, then from each previous one: verify and open with any. */
  deriveAll(purpose: string): Buffer[] {
    if (this.secrets.length === 0) throw new Error('ServerSecret is used before the database module started');
    let keys = this.derived.get(purpose);
    if (!keys) this.derived.set(purpose, (keys = this.secrets.map((secret) => hkdf(secret, purpose))));
    return keys;
  }

  /** The key that names objects in the video store: it never changes, so archived videos stay found after a rotation. */
  objectNamingKey(): Buffer {
    if (!this.objectNaming) throw new Error('ServerSecret is used before the database module started');
    return this.objectNaming;
  }
}
