import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppError, ErrorCode } from '../../common/errors/app-error';
import { Clock } from '../../common/runtime/clock';
import type { TaskDraft } from '../task-draft';
import type { TaskEntity } from '../task.entity';
import { TaskSubmitRepository } from '../repositories/task-submit.repository';
import { SUBMIT_INTERRUPTED } from './submit-outcomes';

/** How long a retry with the same Idempotency-Key and body returns the first task. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600_000;

/**
 * The Idempotency-Key of a submit (IETF draft): the same key and body within the window return the
 * first task; another body is a 409; a first request still in flight is a 409 to retry. A key whose
 * task never reached the provider (refused, interrupted) or was deleted is free again.
 */
@Injectable()
export class SubmitIdempotency {
  constructor(
    private readonly tasks: TaskSubmitRepository,
    private readonly clock: Clock,
  ) {}

  /** What makes two submits "the same request": the model, the family's request and what is priced. */
  hash(draft: TaskDraft): string {
    return createHash('sha256')
      .update(JSON.stringify([draft.model, draft.request, draft.quote]))
      .digest('hex');
  }

  /** The earlier task of this key, or null when the key is free; an AppError (409) when it cannot be answered yet or not with this body. */
  async earlierTask(userId: number, key: string, requestHash: string): Promise<TaskEntity | null> {
    const earlier = await this.tasks.findByIdempotencyKey(userId, key);
    if (!earlier) return null;
    const interrupted = earlier.status === 'FAILURE' && earlier.failReason === SUBMIT_INTERRUPTED;
    if (
      earlier.createdAt < this.clock.now() - IDEMPOTENCY_WINDOW_MS ||
      earlier.status === 'REJECTED' ||
      interrupted ||
      earlier.deletedAt !== null
    ) {
      // Outside the window, after a refused or interrupted submit (never confirmed upstream), or once the client deleted the task, the key is free again.
      await this.tasks.freeIdempotencyKey(earlier.id);
      return null;
    }
    if (earlier.requestHash !== requestHash) {
      throw new AppError(ErrorCode.Conflict, 'Idempotency-Key was already used with a different request body', {
        param: 'Idempotency-Key',
      });
    }
    // Its id would not be visible yet, and the submit may still be refused: the client asks again.
    if (earlier.status === 'SUBMITTING') throw idempotencyKeyInFlight();
    return earlier;
  }
}

/** 409 while the first request with the key is in flight (as the IETF Idempotency-Key draft says). */
export function idempotencyKeyInFlight(): AppError {
  return new AppError(ErrorCode.Conflict, 'a request with this Idempotency-Key is still in progress; retry after Retry-After seconds', {
    param: 'Idempotency-Key',
    retryAfterSeconds: 1,
  });
}
