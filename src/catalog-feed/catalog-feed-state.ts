import { Injectable } from '@nestjs/common';
import { type CatalogChanges, noChanges } from '../catalog/catalog-entry-diff';
import { SettingsService } from '../database/settings.service';
import { isUniqueViolation } from '../database/transaction-runner';

/** What the last reads of the feed found, shared by every instance (whichever read last wrote it). */
export interface FeedState {
  /** The URL these reads were of (another URL starts afresh). */
  url: string;
  /** Ms: the last read that ended well (a document applied, or 304). */
  lastOkAt: number | null;
  /** Ms: the last read, whatever its end. */
  lastReadAt: number | null;
  /** The ETag of the last document applied, sent as If-None-Match. */
  etag: string | null;
  /** Why the last read changed nothing; null once one ends well. */
  lastError: string | null;
  /** What the last read that ended well did (a 304: nothing). */
  applied: CatalogChanges;
}

const KEY = 'catalog_feed';
/** Ids kept of each list: the state is one settings row (a TEXT column on MySQL, 64 KB). */
const MAX_IDS = 200;

export const freshFeedState = (url: string): FeedState => ({
  url,
  lastOkAt: null,
  lastReadAt: null,
  etag: null,
  lastError: null,
  applied: noChanges(),
});

/** The feed's state in the settings table (one row, JSON). */
@Injectable()
export class CatalogFeedStateStore {
  constructor(private readonly settings: SettingsService) {}

  async load(url: string): Promise<FeedState> {
    const text = await this.settings.get(KEY);
    const stored = text ? (JSON.parse(text) as FeedState) : null;
    return stored?.url === url ? stored : freshFeedState(url);
  }

  async save(state: FeedState): Promise<void> {
    const capped = (ids: string[]) => ids.slice(0, MAX_IDS);
    const { added, changed, unchanged, kept_operator_changes } = state.applied;
    const applied = {
      added: capped(added),
      changed: capped(changed),
      unchanged: capped(unchanged),
      kept_operator_changes: capped(kept_operator_changes),
    };
    const text = JSON.stringify({ ...state, applied });
    // Two instances writing the first row at once: the loser's insert is a unique violation; its second try updates.
    await this.settings.set(KEY, text).catch((error: unknown) => {
      if (!isUniqueViolation(error)) throw error;
      return this.settings.set(KEY, text);
    });
  }
}
