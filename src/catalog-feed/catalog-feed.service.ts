import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { noChanges } from '../catalog/catalog-entry-diff';
import { CatalogService } from '../catalog/catalog.service';
import { Clock } from '../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { FamilyRegistry } from '../families/family-registry';
import { CatalogFeedStateStore, FeedState } from './catalog-feed-state';
import { feedEntries, FeedRefused } from './feed-document';
import { FeedReader } from './feed-reader';
import { feedSignatureProblem } from './feed-signature';

const INTERVAL_NAME = 'catalog-feed';

/**
 * The catalog feed (CATALOG_FEED_URL): read at start (in the background: a bad feed never stops
 * the start), every CATALOG_FEED_INTERVAL and on demand; with If-None-Match, its signature checked
 * when CATALOG_FEED_PUBLIC_KEY is set, every entry checked as an admin import is, then merged as a
 * release's builtin entries are (CatalogService.mergeFeed: the operator's changes win). A document
 * that fails anywhere changes nothing; the state says why and when the feed last read well.
 * Every instance reads on its own schedule; the merge is idempotent, so whichever reads applies.
 */
@Injectable()
export class CatalogFeedService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('CatalogFeed');
  /** The read under way on this instance: a refresh asked meanwhile shares it. */
  private reading: Promise<FeedState> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reader: FeedReader,
    private readonly catalog: CatalogService,
    private readonly families: FamilyRegistry,
    private readonly states: CatalogFeedStateStore,
    private readonly scheduler: SchedulerRegistry,
    private readonly clock: Clock,
  ) {}

  get configured(): boolean {
    return this.config.catalogFeed !== undefined;
  }

  /** After the release's builtin merge (FamiliesModule's start, which this module's waits for). */
  onApplicationBootstrap(): void {
    const feed = this.config.catalogFeed;
    if (!feed) return;
    this.refreshInBackground();
    if (feed.intervalMs > 0) {
      const timer = setInterval(() => this.refreshInBackground(), feed.intervalMs);
      timer.unref();
      this.scheduler.addInterval(INTERVAL_NAME, timer);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.scheduler.doesExist('interval', INTERVAL_NAME)) this.scheduler.deleteInterval(INTERVAL_NAME);
    // The read under way finishes its merge before the database closes (its own faults were logged already).
    await this.reading?.catch(() => undefined);
  }

  /** The feed's state as the last read (on any instance) left it; null without a feed. */
  async state(): Promise<FeedState | null> {
    const feed = this.config.catalogFeed;
    return feed ? this.states.load(feed.url) : null;
  }

  /** A read nobody waits for (the start, the interval): its state's own faults (the database) are logged, never thrown. */
  private refreshInBackground(): void {
    this.refresh().catch((error: unknown) => this.logger.warn(`catalog feed: not read (${(error as Error)?.message ?? String(error)})`));
  }

  /** Reads the feed now (or joins the read under way) and answers the state it leaves; never throws for the feed's faults. */
  refresh(): Promise<FeedState> {
    this.reading ??= this.readOnce().finally(() => (this.reading = null));
    return this.reading;
  }

  private async readOnce(): Promise<FeedState> {
    const { url, publicKey } = this.config.catalogFeed!;
    const state = await this.states.load(url);
    const now = this.clock.now();
    let next: FeedState;
    try {
      const read = await this.reader.read(url, state.etag);
      if (read.kind === 'not-modified') {
        next = { ...state, lastOkAt: now, lastReadAt: now, lastError: null, applied: noChanges() };
      } else {
        if (publicKey) {
          const problem = feedSignatureProblem(read.bytes, await this.reader.readSignature(url), publicKey);
          if (problem) throw new FeedRefused(problem);
        }
        const { entries } = await this.catalog.snapshot();
        const applied = await this.catalog.mergeFeed(await feedEntries(read.bytes, this.families.all(), entries));
        next = { url, lastOkAt: now, lastReadAt: now, etag: read.etag, lastError: null, applied };
        this.logger.log(
          `catalog feed applied: ${applied.added.length} added, ${applied.changed.length} updated, ${applied.unchanged.length} unchanged, ` +
            `${applied.kept_operator_changes.length} kept as the operator has them`,
        );
      }
    } catch (error) {
      const why = error instanceof FeedRefused ? error.message : `the merge failed (${(error as Error)?.name ?? 'error'})`;
      if (!(error instanceof FeedRefused)) this.logger.error(`catalog feed: ${(error as Error)?.stack ?? String(error)}`);
      this.logger.warn(`catalog feed not applied, nothing changed: ${why}`);
      next = { ...state, lastReadAt: now, lastError: why };
    }
    try {
      await this.states.save(next);
    } catch (error) {
      this.logger.warn(`catalog feed: its state could not be saved (${(error as Error)?.message})`);
    }
    return next;
  }
}
