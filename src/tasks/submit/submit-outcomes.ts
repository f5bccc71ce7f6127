import { AppError, ErrorCode } from '../../common/errors/app-error';
import type { TaskEntity } from '../task.entity';

/** Why the sync fails a task whose submit was cut off before the provider confirmed it. */
export const SUBMIT_INTERRUPTED = 'generation failed: submit was interrupted';
/** Why a task is refused whose client was answered 503 because the database did not confirm its writes. */
export const SUBMIT_UNCONFIRMED = 'the database did not confirm the submit in time; the client was answered 503';
/** Why a task is refused that a takeover was resubmitting when its client, who sent no Idempotency-Key, was answered 503. */
export const SUBMIT_TAKEN_OVER = 'taken over before the provider confirmed the submit; the client was answered 503';

/** The task runs (the provider has it) and its client may see it: not being submitted, refused, interrupted or deleted. */
export function isStarted(task: TaskEntity): boolean {
  return task.deletedAt === null && !['SUBMITTING', 'REJECTED'].includes(task.status) && task.failReason !== SUBMIT_INTERRUPTED;
}

/** The 503 of a submit whose task was taken over before the provider confirmed it. */
export class SubmitInterruptedError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(
      ErrorCode.ServiceUnavailable,
      'the submit was interrupted before the provider confirmed it; retry (with the same Idempotency-Key, if one was sent)',
      { retryAfterSeconds },
    );
  }
}
