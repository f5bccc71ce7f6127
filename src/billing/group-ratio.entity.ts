import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Per user-group price multiplier (e.g. `vip` at 0.8). Groups without a row pay 1.0. */
@Entity('group_ratios')
export class GroupRatioEntity {
  @PrimaryColumn({ name: 'user_group', type: 'varchar', length: 64 })
  group: string;

  @Column({ type: 'double' })
  ratio: number;
}
