import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn, jsonColumn } from '../database/column-transformers';

/** A provider family's name (src/families/family-registry.ts lists them). */
export type Platform = string;
export type ChannelStatus = 'enabled' | 'disabled';

/** Every channel's own settings, then the family's (its FamilyDefinition.settings names and types them). */
export interface ChannelSettings {
  poll_interval_ms?: number;
  max_concurrency?: number;
  /** What one of the provider's own units costs the operator, in USD (see common-channel-settings.ts). */
  usd_per_unit?: number;
  [key: string]: unknown;
}

@Entity('channels')
export class ChannelEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 128 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  platform: Platform;

  @Column({ name: 'base_url', type: 'varchar', length: 512 })
  baseUrl: string;

  /** The provider's key (stored sealed, see channel-secret-box.ts). Never serialized into a response or a log line. */
  @Column({ name: 'api_key', type: 'text' })
  apiKey: string;

  /** Public model ids this channel serves. */
  @Column({ type: 'text', transformer: jsonColumn })
  models: string[];

  /** Public model id -> upstream model name; absent entries use the family's default mapping. */
  @Column({ name: 'model_mapping', type: 'text', nullable: true, transformer: jsonColumn })
  modelMapping: Record<string, string> | null;

  @Column({ type: 'text', nullable: true, transformer: jsonColumn })
  settings: ChannelSettings | null;

  /** User groups allowed to use the channel; null means every group. */
  @Column({ name: 'user_groups', type: 'text', nullable: true, transformer: jsonColumn })
  groups: string[] | null;

  @Column({ type: 'integer' })
  priority: number;

  @Column({ type: 'integer' })
  weight: number;

  @Column({ type: 'varchar', length: 16 })
  status: ChannelStatus;

  @Column({ name: 'request_count', type: 'bigint', transformer: bigintColumn })
  requestCount: number;

  @Column({ name: 'error_count', type: 'bigint', transformer: bigintColumn })
  errorCount: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintColumn })
  updatedAt: number;
}
