import type { QueryDeepPartialEntity } from 'typeorm';
import type { TaskEntity } from '../task.entity';

/** A poll's bookkeeping on the task itself: counted, never a row per poll. */
export const pollCounted = (polledAt: number): QueryDeepPartialEntity<TaskEntity> => ({
  pollCount: () => 'poll_count + 1',
  firstPollAt: () => `COALESCE(first_poll_at, ${Math.floor(polledAt)})`,
  lastPollAt: Math.floor(polledAt),
});
