import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn, jsonColumn } from '../../database/column-transformers';

/**
 * One piece of the embedded simulator's state (a task, an image, a session, a group, an asset),
 * kept in the gateway's own database so that a restart changes nothing a user sees. `seq` never
 * repeats, so ids derived from it (family A's integer ids) are never handed out twice.
 */
@Entity('simulator_records')
export class SimulatorRecordEntity {
  @PrimaryGeneratedColumn({ name: 'seq' })
  seq: number;

  /** What the record is, e.g. `beta.task`; keys are unique per kind. */
  @Column({ type: 'varchar', length: 32 })
  kind: string;

  @Column({ name: 'record_key', type: 'varchar', length: 191 })
  key: string;

  /** The record it belongs to (a gamma asset's group), for listing. */
  @Column({ name: 'parent_key', type: 'varchar', length: 191, nullable: true })
  parentKey: string | null;

  @Column({ type: 'text', transformer: jsonColumn })
  data: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;
}
