import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintColumn, booleanColumn, jsonColumn } from '../database/column-transformers';
import type { CatalogRoute, ModelCapabilities, ModelSource, ModelStatus } from './catalog-entry';

/** One catalog entry as stored; its prices are `price_rules` rows of the same model. */
@Entity('catalog_models')
export class CatalogModelEntity {
  @PrimaryColumn({ name: 'model_id', type: 'varchar', length: 64 })
  id: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  label: string | null;

  /** Other ids that resolve to this entry (null: none, as entries stored before aliases). */
  @Column({ type: 'text', nullable: true, transformer: jsonColumn })
  aliases: string[] | null;

  @Column({ name: 'owned_by', type: 'varchar', length: 64, nullable: true })
  ownedBy: string | null;

  /** `YYYY-MM-DD`. */
  @Column({ name: 'released_at', type: 'varchar', length: 10, nullable: true })
  releasedAt: string | null;

  @Column({ type: 'text', transformer: jsonColumn })
  capabilities: ModelCapabilities;

  @Column({ type: 'text', transformer: jsonColumn })
  routes: CatalogRoute[];

  @Column({ type: 'varchar', length: 16 })
  status: ModelStatus;

  @Column({ name: 'sunset_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  sunsetAt: number | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  replacement: string | null;

  @Column({ type: 'varchar', length: 16 })
  source: ModelSource;

  @Column({ type: 'integer', transformer: booleanColumn })
  modified: boolean;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintColumn })
  updatedAt: number;
}
