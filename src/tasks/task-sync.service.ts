import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Clock } from '../common/clock';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ChannelEntity } from '../upstream/channel.entity';
import { ChannelsService } from '../upstream/channels.service';
import { UpstreamAdapter, UpstreamError } from '../upstream/upstream-adapter';
import { UpstreamAdapterRegistry } from '../upstream/upstream-adapter.registry';
import { INSTANCE_ID } from './instance-id';
import { TaskEntity } from './task.entity';
import { TaskRepository } from './task.repository';
import { pollIntervalFor, TaskSubmitService } from './task-submit.service';
import { TaskTransitionsService } from './task-transitions.service';

const BATCH_SIZE = 200;
const POLL_LEASE_MS = 60_000;
const MAX_BACKOFF_MS = 5 * 60_000;
const CONCURRENCY = 32;

/**
 * Follows tasks to their end. Each round claims due tasks with a lease in the database (so any
 * number of instances can run it), polls them concurrently, applies each outcome with a
 * compare-and-set, and schedules the next look. One task's trouble never stops the batch.
 */
@Injectable()
export class TaskSyncService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TaskSync');
  private running: Promise<number> | null = null;
  private stopping = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(INSTANCE_ID) private readonly instanceId: string,
    private readonly tasks: TaskRepository,
    private readonly transitions: TaskTransitionsService,
    private readonly submitter: TaskSubmitService,
    private readonly adapters: UpstreamAdapterRegistry,
    private readonly channels: ChannelsService,
    private readonly scheduler: SchedulerRegistry,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.taskSyncIntervalMs <= 0) return;
    const timer = setInterval(() => void this.tick(), this.config.taskSyncIntervalMs);
    this.scheduler.addInterval('task-sync', timer);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.scheduler.doesExist('interval', 'task-sync')) this.scheduler.deleteInterval('task-sync');
    await this.running;
  }

  private async tick(): Promise<void> {
    if (this.running || this.stopping) return;
    try {
      await this.syncDueTasks();
    } catch (error) {
      this.logger.error(`sync round failed: ${(error as Error)?.stack ?? error}`);
    }
  }

  /** One round: claim due work, handle each task on its own. Returns how many tasks were handled. */
  async syncDueTasks(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.runRound().finally(() => (this.running = null));
    return this.running;
  }

  private async runRound(): Promise<number> {
    let handled = 0;
    const now = this.clock.now();
    const interrupted = await this.tasks.claimDueTasks(this.instanceId, now, now + POLL_LEASE_MS, BATCH_SIZE, ['SUBMITTING']);
    const due = await this.tasks.claimDueTasks(this.instanceId, now, now + POLL_LEASE_MS, BATCH_SIZE);
    const channels = new Map((await this.channels.list()).map((channel) => [channel.id, channel]));
    const work = [
      ...interrupted.map((task) => () => this.settleInterrupted(task, channels)),
      ...due.map((task) => () => this.pollOne(task, channels.get(task.channelId ?? -1))),
    ];
    await runBounded(work, CONCURRENCY, (error) => this.logger.error(`task sync failed: ${(error as Error)?.stack ?? error}`));
    handled += work.length;
    return handled;
  }

  private async pollOne(task: TaskEntity, channel: ChannelEntity | undefined): Promise<void> {
    const now = this.clock.now();
    if (task.submitTime !== null && now - task.submitTime > this.config.taskTimeoutMs) {
      await this.transitions.fail(task, 'upstream timeout', {}, this.instanceId);
      return;
    }
    if (!channel || !task.upstreamTaskId) {
      await this.transitions.fail(task, 'generation failed: channel no longer exists', {}, this.instanceId);
      return;
    }
    const adapter = this.adapters.get(task.platform);
    const interval = pollIntervalFor(channel, adapter);
    try {
      const outcome = await adapter.poll(task, channel);
      const elapsed = now - (task.submitTime ?? task.createdAt);
      const estimate = Math.min(95, (elapsed / adapter.expectedDurationMs) * 100);
      const status = await this.transitions.applyPoll(task, outcome, estimate, this.instanceId);
      if (status && status !== 'SUCCESS' && status !== 'FAILURE') {
        await this.tasks.release(task.id, this.instanceId, { nextPollAt: this.clock.now() + interval });
      }
    } catch (error) {
      const failures = task.pollFailures + 1;
      const backoff = Math.min(MAX_BACKOFF_MS, interval * 2 ** Math.min(failures, 10));
      const jittered = interval + Math.floor(Math.random() * backoff);
      const reason = error instanceof UpstreamError ? `${error.kind}: ${error.message}` : String((error as Error)?.message ?? error);
      this.logger.warn(`poll of ${task.taskId} failed (${failures} in a row): ${reason}`);
      await this.tasks.release(task.id, this.instanceId, { pollFailures: failures, nextPollAt: this.clock.now() + jittered });
    }
  }

  /** A task left SUBMITTING by a crashed submit: resubmit where the provider de-duplicates, else fail and refund. */
  private async settleInterrupted(task: TaskEntity, channels: Map<number, ChannelEntity>): Promise<void> {
    const adapter: UpstreamAdapter = this.adapters.get(task.platform);
    const channel = channels.get(task.channelId ?? -1);
    if (adapter.idempotentSubmit && channel && channel.status === 'enabled') {
      try {
        await this.submitter.sendUpstream(task, [channel], adapter);
        return;
      } catch (error) {
        this.logger.warn(`resubmit of ${task.taskId} failed: ${(error as Error)?.message ?? error}`);
        return; // sendUpstream rejected and refunded it
      }
    }
    await this.transitions.fail(task, 'generation failed: submit was interrupted', {}, this.instanceId);
  }
}

/** Runs thunks with at most `limit` in flight; errors are reported, never thrown. */
export async function runBounded(work: Array<() => Promise<void>>, limit: number, onError: (error: unknown) => void): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < work.length) {
      const job = work[next++];
      try {
        await job();
      } catch (error) {
        onError(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, work.length) }, worker));
}
