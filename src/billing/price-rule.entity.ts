import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from '../database/column-transformers';

export type PriceUnit = 'second' | 'clip';

/**
 * One price: a model at a resolution (and, for per-clip prices, a duration), in quota units.
 * `audio_price` is the with-audio tier; when null the audio tier costs twice `price`.
 */
@Entity('price_rules')
export class PriceRuleEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 64 })
  model: string;

  /** Lower-case quality (`360p`, `720p`, ...) or `*` for any. */
  @Column({ type: 'varchar', length: 16 })
  resolution: string;

  @Column({ type: 'varchar', length: 16 })
  unit: PriceUnit;

  /** Per-clip prices may differ by duration; 0 means any duration. */
  @Column({ type: 'integer' })
  duration: number;

  @Column({ type: 'bigint', transformer: bigintColumn })
  price: number;

  @Column({ name: 'audio_price', type: 'bigint', nullable: true, transformer: bigintColumn })
  audioPrice: number | null;
}
