import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from '../../database/column-transformers';

/** A portrait uploaded as a file, served to the verification provider under a signed link until it expires. */
@Entity('portrait_uploads')
export class PortraitUploadEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'upload_id', type: 'varchar', length: 64, unique: true })
  uploadId: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'content_type', type: 'varchar', length: 32 })
  contentType: string;

  @Column({ type: 'integer' })
  size: number;

  @Column({ type: 'blob' })
  bytes: Buffer;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;

  @Column({ name: 'expires_at', type: 'bigint', transformer: bigintColumn })
  expiresAt: number;
}
