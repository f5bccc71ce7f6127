import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintColumn } from '../database/column-transformers';

/** `pending` until archived, `archived`, or `failed` (the provider lost it first). */
export type ArchiveStatus = 'pending' | 'archived' | 'failed';

/**
 * The gateway's own copy of one finished task's video (StorageModule alone reads and writes it):
 * written with the task's move to SUCCESS, then claimed and settled by the archiving job.
 */
@Entity('video_archives')
export class VideoArchiveEntity {
  /** The task's row id (`tasks.id`): one archive per task. */
  @PrimaryColumn({ name: 'task_row_id', type: 'integer' })
  taskRowId: number;

  /** Null once the task was deleted by its owner and its copy removed. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  status: ArchiveStatus | null;

  /** When the archiving job should next try (ms epoch); moved to the lease's end while claimed. */
  @Column({ name: 'due_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  dueAt: number | null;

  @Column({ name: 'lease_owner', type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;

  @Column({ type: 'integer', default: 0 })
  failures: number;

  /** Bytes of the stored video. */
  @Column({ type: 'bigint', nullable: true, transformer: bigintColumn })
  size: number | null;

  /** Bytes of the stored poster frame; null when the video could not be decoded into one. */
  @Column({ name: 'thumbnail_size', type: 'bigint', nullable: true, transformer: bigintColumn })
  thumbnailSize: number | null;

  @Column({ name: 'archived_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  archivedAt: number | null;

  /** Why the last try failed (ours, never the provider's words). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  error: string | null;

  /** When the provider's link to the video dies (finish time + the adapter's `outputExpiresAfterMs`); null: the provider keeps it. */
  @Column({ name: 'expires_at', type: 'bigint', nullable: true, transformer: bigintColumn })
  expiresAt: number | null;
}

/** Whether a video whose provider link dies at `expiresAt` has died by `now` (null: it never does). */
export const outputExpired = (expiresAt: number | null | undefined, now: number): boolean =>
  expiresAt !== null && expiresAt !== undefined && now >= expiresAt;

/** What the rest of the gateway may know of a task's archive (task lists, the task drawer). */
export interface ArchiveSummary {
  status: ArchiveStatus | null;
  error: string | null;
  hasThumbnail: boolean;
  archivedAt: number | null;
  /** When the provider's link to the video dies (ms epoch); null when the provider keeps it. */
  expiresAt: number | null;
  /** The provider's link died before a copy was made: the video is gone (its content routes answer 410 `video_expired`). */
  videoExpired: boolean;
}

export const NO_ARCHIVE: ArchiveSummary = {
  status: null,
  error: null,
  hasThumbnail: false,
  archivedAt: null,
  expiresAt: null,
  videoExpired: false,
};

export const toArchiveSummary = (archive: VideoArchiveEntity | null | undefined, now: number): ArchiveSummary =>
  archive
    ? {
        status: archive.status,
        error: archive.error,
        hasThumbnail: archive.status === 'archived' && archive.thumbnailSize !== null,
        archivedAt: archive.archivedAt,
        expiresAt: archive.expiresAt,
        videoExpired: archive.status !== 'archived' && outputExpired(archive.expiresAt, now),
      }
    : NO_ARCHIVE;
