import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Small key-value store for gateway-wide state (e.g. the generated admin token's hash). */
@Entity('settings')
export class SettingEntity {
  @PrimaryColumn({ name: 'setting_key', type: 'varchar', length: 128 })
  key: string;

  @Column({ type: 'text' })
  value: string;
}
