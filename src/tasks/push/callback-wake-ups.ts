import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/runtime/clock';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { TaskWakeRepository } from '../repositories/task-wake.repository';
import { TaskSyncService } from '../task-sync.service';
import { ProviderReads } from './provider-reads';

/** How often a wake-up looks again at a task a submit or a poll holds. */
const RETRY_MS = 200;

/**
 * A callback's wake-up: its task becomes due (`at`, no sooner than a second after its last read) and
 * the sync reads it as it reads any poll, under its lease, so the task ends once whichever instance
 * reads it. A task a submit holds (the provider called back before its id was stored) or a poll
 * holds (it may have read the state of before) is woken once it is let go, within a lease's time.
 */
@Injectable()
export class CallbackWakeUps {
  private readonly logger = new Logger('ProviderCallbacks');
  /** Wake-ups still waiting for their task to be let go, by task row: a callback more only moves its time sooner. */
  private readonly pending = new Map<number, number>();

  constructor(
    private readonly tasks: TaskWakeRepository,
    private readonly sync: TaskSyncService,
    private readonly reads: ProviderReads,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Runs in the background of the callback's answer; a failure is logged, and the safety net's poll still comes. */
  wake(taskRowId: number, at: number): void {
    const waiting = this.pending.get(taskRowId);
    if (waiting !== undefined) {
      this.pending.set(taskRowId, Math.min(waiting, at));
      return;
    }
    this.pending.set(taskRowId, at);
    void this.wakeWhenFree(taskRowId)
      .catch((error) => this.logger.warn(`wake-up of task row ${taskRowId} failed: ${error}`))
      .finally(() => this.pending.delete(taskRowId));
  }

  private async wakeWhenFree(taskRowId: number): Promise<void> {
    const giveUpAt = this.clock.now() + this.config.taskLeaseMs * 2;
    for (;;) {
      const at = this.pending.get(taskRowId) ?? this.clock.now();
      const result = await this.tasks.wake(taskRowId, Math.max(at, this.clock.now()));
      if (result === 'woken') {
        this.reads.wokenByCallback(taskRowId, this.clock.now());
        this.sync.wakeSoon();
        return;
      }
      if (result === 'nothing' || this.clock.now() >= giveUpAt) return;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}
