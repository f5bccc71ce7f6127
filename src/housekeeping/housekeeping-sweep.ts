/** What one sweep removed: rows, and the bytes they (or their stored objects) held when known. */
export interface SweepResult {
  rows: number;
  bytes?: number;
}

/**
 * One kind of expired rows a module deletes from its own table, a batch at a time: the module
 * registers it with {@link HousekeepingSweeps} and the housekeeping job asks it, so no other
 * module touches the table. Deletes go by ids picked with a LIMIT, so no statement holds long locks.
 */
export interface HousekeepingSweep {
  /** The table it removes from: the `table` label of the housekeeping metrics. */
  readonly table: string;
  /** Removes at most `limit` rows that expired by `now`. A result below `limit` means nothing more is due. */
  sweep(now: number, limit: number): Promise<SweepResult>;
}
