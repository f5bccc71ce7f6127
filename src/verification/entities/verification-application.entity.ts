import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn } from '../../database/column-transformers';

export type ApplicationStatus = 'pending' | 'approved' | 'rejected';

/** A customer's request for the verification capability, reviewed by an admin. */
@Entity('verification_applications')
export class VerificationApplicationEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ type: 'varchar', length: 200 })
  company: string;

  @Column({ name: 'use_case', type: 'text' })
  useCase: string;

  @Column({ type: 'varchar', length: 200 })
  contact: string;

  @Column({ type: 'varchar', length: 16 })
  status: ApplicationStatus;

  /** The reviewer's note (e.g. why it was rejected). */
  @Column({ name: 'review_note', type: 'text', nullable: true })
  reviewNote: string | null;

  @Column({ name: 'reviewed_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  reviewedAt: number | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintColumn })
  createdAt: number;

  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintColumn })
  updatedAt: number;
}
